/** Peer (spec 2.6), accessible peer and temporary access. Peers are enrolled by agents, never created by the API. */
import { GroupSummarySchema, isIPv4, nameString, z } from "./common";

const localFlagNames = [
  "rosenpass_enabled",
  "rosenpass_permissive",
  "server_ssh_allowed",
  "disable_client_routes",
  "disable_server_routes",
  "disable_dns",
  "disable_firewall",
  "block_lan_access",
  "block_inbound",
  "lazy_connection_enabled",
] as const;

export const LocalFlagsSchema = z
  .strictObject(
    Object.fromEntries(localFlagNames.map((n) => [n, z.boolean().describe(`Agent flag ${n}`)])) as Record<
      (typeof localFlagNames)[number],
      z.ZodBoolean
    >,
  )
  .describe("Flags set locally on the agent");

export const PeerSchema = z
  .strictObject({
    id: z.string().describe("Peer id"),
    name: z.string().describe("Peer name"),
    created_at: z.string().describe("Enrollment time"),
    ip: z.string().describe("Overlay IP address"),
    connection_ip: z.string().describe("Public address the peer connects from"),
    connected: z.boolean().describe("Whether the peer is connected now"),
    last_seen: z.string().describe("Last time the peer was seen"),
    os: z.string().describe("Operating system"),
    kernel_version: z.string().describe("Kernel version"),
    geoname_id: z.number().int().describe("Geoname id of the peer's location"),
    version: z.string().describe("Agent version"),
    groups: z.array(GroupSummarySchema).describe("Groups the peer belongs to"),
    ssh_enabled: z.boolean().describe("Whether the SSH server of the agent is enabled"),
    user_id: z.string().describe("Id of the user who enrolled the peer (empty for setup-key peers)"),
    hostname: z.string().describe("Host name"),
    ui_version: z.string().describe("Desktop UI version"),
    dns_label: z.string().describe("DNS label of the peer"),
    login_expiration_enabled: z.boolean().describe("Whether the peer's login expires"),
    login_expired: z.boolean().describe("Whether the peer's login has expired"),
    last_login: z.string().describe("Last login time"),
    inactivity_expiration_enabled: z.boolean().describe("Whether the peer's login expires after inactivity"),
    approval_required: z.boolean().describe("Whether the peer awaits approval (cloud only)"),
    disapproval_reason: z.string().optional().describe("Why approval is required (cloud only)"),
    country_code: z.string().describe("Country code of the peer's location"),
    city_name: z.string().describe("City of the peer's location"),
    serial_number: z.string().describe("Device serial number"),
    extra_dns_labels: z.array(z.string()).describe("Extra DNS labels"),
    ephemeral: z.boolean().describe("Whether the peer is removed after being offline"),
    local_flags: LocalFlagsSchema,
    accessible_peers_count: z
      .number()
      .int()
      .optional()
      .describe("Number of accessible peers (list response)"),
  })
  .describe("Peer: an enrolled device");

export const PeerUpdateSchema = z
  .object({
    name: nameString().describe("Peer name"),
    ssh_enabled: z.boolean().describe("Enable the agent's SSH server"),
    login_expiration_enabled: z.boolean().describe("Expire the peer's login"),
    inactivity_expiration_enabled: z.boolean().describe("Expire the peer's login after inactivity"),
    approval_required: z.boolean().optional().describe("Require approval (cloud only)"),
    ip: z
      .string()
      .refine(isIPv4, { error: "must be an IPv4 address in the account's network range" })
      .optional()
      .describe("Overlay IP address to assign"),
  })
  .describe("Peer update body");

export const PeerListQuerySchema = z
  .object({
    name: z.string().optional().describe("Only peers with this name"),
    ip: z.string().optional().describe("Only the peer with this overlay IP"),
  })
  .describe("Peer list filters");

export const AccessiblePeerSchema = z
  .strictObject({
    id: z.string().describe("Peer id"),
    name: z.string().describe("Peer name"),
    ip: z.string().describe("Overlay IP address"),
    dns_label: z.string().describe("DNS label"),
    user_id: z.string().describe("Owner user id"),
    os: z.string().describe("Operating system"),
    country_code: z.string().describe("Country code"),
    city_name: z.string().describe("City"),
    geoname_id: z.number().int().describe("Geoname id"),
    connected: z.boolean().describe("Whether the peer is connected"),
    last_seen: z.string().describe("Last time seen"),
  })
  .describe("A peer that another peer can connect to");

const TEMP_RULE = /^(tcp|udp)\/(\d{1,5})(-(\d{1,5}))?$|^(icmp|all)$/;

export const TemporaryAccessRequestSchema = z
  .object({
    name: nameString().describe("Host name of the temporary peer"),
    wg_pub_key: z
      .string()
      .regex(/^[A-Za-z0-9+/]{43}=$/, { error: "must be a WireGuard public key (44 base64 characters)" })
      .describe("WireGuard public key of the temporary peer"),
    rules: z
      .array(
        z
          .string()
          .refine(
            (s) => {
              const m = TEMP_RULE.exec(s);
              if (!m) return false;
              if (m[2] === undefined) return true;
              const a = Number(m[2]);
              const b = m[4] === undefined ? a : Number(m[4]);
              return a >= 1 && b <= 65535 && a <= b;
            },
            { error: "must be protocol/port such as tcp/22 or udp/5000-5010" },
          )
          .describe("A rule: protocol/port"),
      )
      .min(1, { error: "must have at least one rule" })
      .describe("What the temporary peer may reach on this peer, as protocol/port"),
  })
  .describe("Temporary access request body");

export const TemporaryAccessSchema = z
  .strictObject({
    name: z.string().describe("Name of the temporary peer"),
    id: z.string().describe("Id of the temporary peer"),
    rules: z.array(z.string()).describe("Granted rules"),
  })
  .describe("Temporary access granted");

export type Peer = z.infer<typeof PeerSchema>;
export type AccessiblePeer = z.infer<typeof AccessiblePeerSchema>;
