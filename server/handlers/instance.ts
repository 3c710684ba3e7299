/**
 * The instance and its locations (the service's v0.77.1 document; not in the spec).
 *
 * - `GET /api/instance` answers without credentials: privnet-server makes its owner when it creates a database,
 *   so no first-run setup is ever needed.
 * - `GET /api/instance/version`: the package's version as the management server's. privnet-server does not look
 *   for published releases (it reaches nothing outside), so it names no available version and no update.
 * - Locations: privnet-server has no geo database. Its countries and cities are those its peers report (the
 *   simulated agent sets them), so a lookup finds the places a geo-location posture check can meet here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Handlers, StoredKinds } from "../context";
import { invalid } from "../errors";
import type { PeerDoc } from "../model";

/** The package's version (its package.json, two levels up from here in both server/ and dist/server/...). */
function packageVersion(): string {
  for (const up of [path.join("..", ".."), path.join("..", "..", "..")]) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, up, "package.json"), "utf8")) as {
        name?: string;
        version: string;
      };
      if (pkg.name === "pulumi-privnet") return pkg.version;
    } catch {
      // not there: one more level up
    }
  }
  return "0.0.0";
}

const VERSION = `v${packageVersion()}`;

const COUNTRY = /^[A-Z]{2}$/;

export const kinds = {} satisfies StoredKinds;

export const handlers: Handlers = {
  getInstanceStatus: () => ({ setup_required: false }),

  getInstanceVersion: () => ({ management_current_version: VERSION, management_update_available: false }),

  listCountries: (ctx) =>
    [
      ...new Set(
        ctx.state.store
          .all<PeerDoc>("peer")
          .map((p) => p.country_code)
          .filter((c) => COUNTRY.test(c)),
      ),
    ].sort(),

  listCities: (ctx) => {
    const country = String(ctx.params.country ?? "");
    if (!COUNTRY.test(country))
      throw invalid("country: must be an ISO 3166-1 alpha-2 country code such as DE (upper case)");
    const cities = new Map<number, string>();
    for (const p of ctx.state.store.all<PeerDoc>("peer")) {
      if (p.country_code === country && p.city_name !== "" && p.geoname_id > 0)
        cities.set(p.geoname_id, p.city_name);
    }
    return [...cities]
      .map(([geoname_id, city_name]) => ({ geoname_id, city_name }))
      .sort((a, b) => a.city_name.localeCompare(b.city_name));
  },
};
