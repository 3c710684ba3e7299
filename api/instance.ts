/**
 * The instance and the places geo-location posture checks name (the service's v0.77.1 API document; not in the
 * spec): whether the instance still needs its first-run setup, its version, and the countries and cities of its
 * geo database.
 */
import { z } from "./common";

export const InstanceStatusSchema = z
  .strictObject({
    setup_required: z.boolean().describe("Whether the instance still needs its first-run setup"),
  })
  .describe("Instance status (answered without credentials)");

export const InstanceVersionSchema = z
  .strictObject({
    management_current_version: z.string().describe("Version of the running management server"),
    dashboard_available_version: z
      .string()
      .optional()
      .describe("Latest published version of the dashboard, where the server knows it"),
    management_available_version: z
      .string()
      .optional()
      .describe("Latest published version of the management server, where the server knows it"),
    management_update_available: z.boolean().describe("Whether a newer management server is published"),
  })
  .describe("Versions of the instance's components");

export const CountryCodeSchema = z
  .string()
  .regex(/^[A-Z]{2}$/, { error: "must be an ISO 3166-1 alpha-2 country code such as DE" })
  .describe("ISO 3166-1 alpha-2 country code");

export const CitySchema = z
  .strictObject({
    geoname_id: z.number().int().describe("The city's id in the GeoNames database"),
    city_name: z.string().describe("English name of the city"),
  })
  .describe("A city of the geo database");
