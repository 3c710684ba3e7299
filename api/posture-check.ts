/** Posture check (spec 2.10): conditions a peer must meet to be a policy source. */
import { cidr, issue, nameString, openEnum, z } from "./common";

const VERSION = /^v?\d+(\.\d+){0,3}([-+.][0-9A-Za-z.-]+)?$/;
const version = () => z.string().regex(VERSION, { error: "must be a version such as 0.28.0" });

const MinVersion = z
  .object({ min_version: version().describe("Minimum version") })
  .describe("Minimum version requirement");
const MinKernelVersion = z
  .object({ min_kernel_version: version().describe("Minimum kernel version") })
  .describe("Minimum kernel version requirement");

export const CheckAction = openEnum(["allow", "deny"], "Whether matching peers are allowed or denied");

export const ProcessSchema = z
  .object({
    linux_path: z.string().optional().describe("Executable path on Linux"),
    mac_path: z.string().optional().describe("Executable path on macOS"),
    windows_path: z.string().optional().describe("Executable path on Windows"),
  })
  .superRefine((p, ctx) => {
    if (!p.linux_path && !p.mac_path && !p.windows_path) {
      issue(ctx, ["linux_path"], "at least one of linux_path, mac_path or windows_path is required");
    }
  })
  .describe("A process that must run on the peer");

export const ChecksSchema = z
  .object({
    nb_version_check: MinVersion.optional().describe("Minimum agent version"),
    os_version_check: z
      .object({
        android: MinVersion.optional().describe("Minimum Android version"),
        ios: MinVersion.optional().describe("Minimum iOS version"),
        darwin: MinVersion.optional().describe("Minimum macOS version"),
        linux: MinKernelVersion.optional().describe("Minimum Linux kernel version"),
        windows: MinKernelVersion.optional().describe("Minimum Windows kernel version"),
      })
      .optional()
      .describe("Minimum operating system versions"),
    geo_location_check: z
      .object({
        locations: z
          .array(
            z
              .object({
                country_code: z
                  .string()
                  .regex(/^[A-Z]{2}$/, { error: "must be an ISO 3166-1 alpha-2 code such as DE" })
                  .describe("Country, ISO 3166-1 alpha-2"),
                city_name: z.string().optional().describe("City name"),
              })
              .describe("A location"),
          )
          .min(1, { error: "must list at least one location" })
          .describe("Locations"),
        action: CheckAction,
      })
      .optional()
      .describe("Allow or deny peers by location"),
    peer_network_range_check: z
      .object({
        ranges: z.array(cidr()).min(1, { error: "must list at least one range" }).describe("CIDR ranges"),
        action: CheckAction,
      })
      .optional()
      .describe("Allow or deny peers by the ranges of their local networks"),
    process_check: z
      .object({
        processes: z
          .array(ProcessSchema)
          .min(1, { error: "must list at least one process" })
          .describe("Processes that must run"),
      })
      .optional()
      .describe("Processes that must run on the peer"),
  })
  .describe("The checks; each member is optional");

/** Members of {@link ChecksSchema}: a posture check sets at least one. */
export const CHECK_KINDS = [
  "nb_version_check",
  "os_version_check",
  "geo_location_check",
  "peer_network_range_check",
  "process_check",
] as const;

export const PostureCheckRequestSchema = z
  .object({
    name: nameString().describe("Posture check name"),
    description: z.string().describe("Posture check description"),
    checks: ChecksSchema.superRefine((c, ctx) => {
      // A posture check that checks nothing passes every peer: refused rather than stored.
      if (!CHECK_KINDS.some((k) => c[k] !== undefined && c[k] !== null))
        issue(ctx, [], `must set at least one check: ${CHECK_KINDS.join(", ")}`);
      const os = c.os_version_check;
      if (os && !Object.values(os).some((v) => v !== undefined && v !== null))
        issue(ctx, ["os_version_check"], "must set at least one operating system");
    }).describe("The checks; at least one"),
  })
  .describe("Posture check create or replace body");

export const PostureCheckSchema = z
  .strictObject({
    id: z.string().describe("Posture check id"),
    name: z.string().describe("Posture check name"),
    description: z.string().describe("Posture check description"),
    checks: ChecksSchema.describe("The checks"),
  })
  .describe("Posture check");

export type PostureCheck = z.infer<typeof PostureCheckSchema>;
