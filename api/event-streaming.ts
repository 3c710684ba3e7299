/**
 * Event streaming integration (spec 2.18): forwards events to an external platform. Credential values of
 * `config` are masked in every response.
 */
import { issue, openEnum, z } from "./common";

export const StreamingPlatform = openEnum(
  ["datadog", "s3", "firehose", "generic_http"],
  "Target: datadog (log monitoring), s3 (object store), firehose (stream delivery), generic_http",
);

/**
 * Config keys per platform: which are required, which carry credentials (masked in responses), and which say
 * where events go (a masked credential keeps the stored one only while these stay as they are).
 */
export const PLATFORM_KEYS: Record<
  z.infer<typeof StreamingPlatform>,
  { required: string[]; optional: string[]; credentials: string[]; destination: string[] }
> = {
  datadog: { required: ["api_key"], optional: ["site"], credentials: ["api_key"], destination: ["site"] },
  s3: {
    required: ["bucket_name", "region", "access_key_id", "secret_access_key"],
    optional: ["prefix"],
    credentials: ["access_key_id", "secret_access_key"],
    destination: ["bucket_name", "region"],
  },
  firehose: {
    required: ["stream_name", "region", "access_key_id", "secret_access_key"],
    optional: [],
    credentials: ["access_key_id", "secret_access_key"],
    destination: ["stream_name", "region"],
  },
  generic_http: {
    required: ["url"],
    optional: ["auth_token"],
    credentials: ["auth_token"],
    destination: ["url"],
  },
};

/** Every config key that carries a credential, on any platform. */
export const CREDENTIAL_KEYS = [...new Set(Object.values(PLATFORM_KEYS).flatMap((p) => p.credentials))];

/** What a masked credential looks like in responses. */
export const MASKED_CREDENTIAL = "********";

const configSchema = () =>
  z
    .record(z.string(), z.string())
    .describe(
      "Platform-specific settings: datadog {api_key, site}, s3 {bucket_name, region, access_key_id, " +
        "secret_access_key, prefix}, firehose {stream_name, region, access_key_id, secret_access_key}, " +
        "generic_http {url, auth_token}. Credential values are masked in responses; on update, the mask " +
        "stands for the stored credential only while the destination (site; bucket_name and region; " +
        "stream_name and region; url) is unchanged",
    );

function checkConfig(platform: unknown, config: unknown, ctx: z.RefinementCtx) {
  const keys = PLATFORM_KEYS[platform as keyof typeof PLATFORM_KEYS];
  if (!keys || typeof config !== "object" || config === null) return;
  const cfg = config as Record<string, string>;
  for (const k of keys.required) {
    if (typeof cfg[k] !== "string" || cfg[k] === "")
      issue(ctx, ["config", k], `is required for platform ${String(platform)}`);
  }
  const allowed = new Set([...keys.required, ...keys.optional]);
  for (const k of Object.keys(cfg)) {
    if (!allowed.has(k)) issue(ctx, ["config", k], `is not a setting of platform ${String(platform)}`);
  }
  if (platform === "generic_http" && typeof cfg.url === "string" && !/^https?:\/\/\S+$/.test(cfg.url)) {
    issue(ctx, ["config", "url"], "must be an http(s) URL");
  }
}

export const EventStreamingCreateSchema = z
  .object({
    platform: StreamingPlatform,
    config: configSchema(),
    enabled: z.boolean().describe("Whether events are forwarded"),
  })
  .superRefine((b, ctx) => checkConfig(b.platform, b.config, ctx))
  .describe("Event streaming create body");

export const EventStreamingUpdateSchema = z
  .object({
    platform: StreamingPlatform.optional().describe("Ignored on update"),
    config: configSchema(),
    enabled: z.boolean().describe("Whether events are forwarded"),
  })
  .describe("Event streaming update body (config is checked against the stored platform)");

export const EventStreamingSchema = z
  .strictObject({
    id: z.number().int().describe("Integration id"),
    account_id: z.string().describe("Account id"),
    enabled: z.boolean().describe("Whether events are forwarded"),
    platform: StreamingPlatform,
    config: z.record(z.string(), z.string()).describe("Platform settings; credential values masked"),
    created_at: z.string().describe("Creation time"),
    updated_at: z.string().describe("Last change"),
  })
  .describe("Event streaming integration");

/** Config validation against a known platform, for updates (the platform is ignored on update). */
export function checkStreamingConfig(platform: string, config: unknown, ctx: z.RefinementCtx): void {
  checkConfig(platform, config, ctx);
}

export type EventStreaming = z.infer<typeof EventStreamingSchema>;
