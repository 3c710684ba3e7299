/**
 * The acceptance target as test files see it: the probe made by ./global-setup.ts, a client with the owner's
 * token, fixture targets that make prerequisites through the API only, and the results log the teardown reports.
 */
import * as fs from "node:fs";
import { PrivnetClient } from "../../client";
import { INVENTORY_KINDS, type Inventory } from "../../scripts/inventory";
import { onlineCluster, registerSimulatedProxy, type FixtureTarget } from "../support/provider";
import type { Probe } from "./probe";

export type KindStatus =
  | "passed"
  | "failed"
  | "not served"
  | "too few enrolled peers"
  | "no proxy cluster"
  | "nothing to look up"
  | "no geo database (412)"
  /** Pieces the check needs are absent (named in the detail). */
  | "not run";

export interface KindResult {
  /** Which check: `lifecycle`, `program`, ... */
  check: string;
  kind: string;
  status: KindStatus;
  detail?: string;
}

export interface Acceptance {
  probe: Probe;
  url: string;
  token: string;
  /** True when the tier started its own privnet-server (it has the simulated agent). */
  own: boolean;
  client: PrivnetClient;
  /**
   * Prerequisites through the API. Peers: on our own server, new ones enrolled through the simulated agent; on
   * a live server, the account's enrolled peers, `front` or `back` half (two test files use them at once).
   */
  fixtureTarget(peers: "front" | "back"): FixtureTarget;
  /** Peers a file may use on this target (unbounded on our own server). */
  peerBudget(peers: "front" | "back"): number;
  record(result: KindResult): void;
  /**
   * Runs `body` and records its outcome for the summary: passed, with the detail it returns if any, or failed with
   * the first line of its error, which is thrown on.
   */
  recorded(check: string, kind: string, body: () => Promise<string | void>): Promise<void>;
}

/**
 * Who an MSP tenant made by the tier is handed to when it is destroyed: on our own server anyone; on a live server
 * `PRIVNET_ACCEPTANCE_MSP_OWNER` (a user that may own the tier's tenants), else no tenant is made there (the API
 * cannot delete one, and a run leaves nothing behind).
 */
export function mspOwner(own: boolean): string | undefined {
  return own ? "acceptance-tenant-owner" : process.env.PRIVNET_ACCEPTANCE_MSP_OWNER || undefined;
}

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the acceptance tier with \`npm run test:acceptance\``);
  return v;
}

async function enroll(url: string, client: PrivnetClient, hostname: string, key: { value?: string }) {
  if (!key.value) {
    const created = await client.call<{ key: string }>("createSetupKey", {
      body: {
        name: "acceptance agents",
        type: "reusable",
        expires_in: 86400,
        auto_groups: [],
        usage_limit: 0,
      },
    });
    key.value = created.key;
  }
  const res = await fetch(`${url}/sim/enroll`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ setup_key: key.value, hostname }),
  });
  const body = (await res.json()) as { id?: string; message?: string };
  if (res.status !== 200 || !body.id) throw new Error(`enroll ${hostname}: ${res.status} ${body.message}`);
  return body.id;
}

/**
 * Objects per kind on a shared account, peers left out (they come and go with the account's agents): what a test
 * counts before and after to show it left nothing behind.
 */
export function countsWithoutPeers(inv: Inventory): Record<string, number> {
  return Object.fromEntries(INVENTORY_KINDS.filter((k) => k !== "peers").map((k) => [k, inv[k].length]));
}

export function acceptance(): Acceptance {
  const url = required("PRIVNET_ACCEPTANCE_URL");
  const token = required("PRIVNET_ACCEPTANCE_TOKEN");
  const probe = JSON.parse(fs.readFileSync(required("PRIVNET_ACCEPTANCE_PROBE"), "utf8")) as Probe;
  const resultsFile = required("PRIVNET_ACCEPTANCE_RESULTS");
  const own = process.env.PRIVNET_ACCEPTANCE_OWN === "1";
  const client = new PrivnetClient({ apiUrl: url, token, rateLimit: false });
  const half = Math.ceil(probe.peers.length / 2);
  const slice = (which: "front" | "back") =>
    which === "front" ? probe.peers.slice(0, half) : probe.peers.slice(half);
  const record = (result: KindResult) => fs.appendFileSync(resultsFile, `${JSON.stringify(result)}\n`);
  let n = 0;
  return {
    probe,
    url,
    token,
    own,
    client,
    fixtureTarget(which) {
      // The account's peers in turn: a fixture that takes k peers gets k different ones while k <= the budget.
      const available = slice(which);
      let next = 0;
      const key: { value?: string } = {};
      return {
        async call(operationId, args) {
          return client.call(operationId, args ?? {});
        },
        async peer() {
          if (own) return enroll(url, client, `acc-${process.pid}-${++n}`, key);
          const id = available[next++ % Math.max(available.length, 1)];
          if (!id) throw new Error("the target has no enrolled peer for this test");
          return id;
        },
        oidcIssuer: own
          ? "https://idp.example.com"
          : (process.env.PRIVNET_ACCEPTANCE_OIDC_ISSUER ?? `${url}/oauth2`),
        geoLocation: own || process.env.PRIVNET_ACCEPTANCE_GEO === "1",
        mspOwner: mspOwner(own),
        async proxyCluster() {
          const call: FixtureTarget["call"] = (operationId, args) => client.call(operationId, args ?? {});
          return own
            ? registerSimulatedProxy(url, call, `proxy-${process.pid}-${which}.example.test`)
            : onlineCluster(call);
        },
      };
    },
    peerBudget: (which) => (own ? Number.POSITIVE_INFINITY : slice(which).length),
    record,
    async recorded(check, kind, body) {
      try {
        const detail = await body();
        record({ check, kind, status: "passed", ...(detail ? { detail } : {}) });
      } catch (err) {
        record({ check, kind, status: "failed", detail: String(err).split("\n")[0] });
        throw err;
      }
    },
  };
}
