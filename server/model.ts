/**
 * Stored document shapes. They stay close to the API's (snake_case) and add what the API never shows
 * (hashes, write-only secrets). Views in the handlers turn them into responses.
 */
import type { Doc } from "./store";

export interface AccountDoc extends Doc {
  domain: string;
  domain_category: "private" | "public" | "other";
  created_at: string;
  created_by: string;
  settings: Record<string, unknown>;
  onboarding: { signup_form_pending: boolean; onboarding_flow_pending: boolean };
  dns: { disabled_management_groups: string[] };
}

export interface UserDoc extends Doc {
  email: string;
  name: string;
  role: string;
  status: "active" | "invited" | "blocked";
  last_login: string;
  auto_groups: string[];
  is_service_user: boolean;
  is_blocked: boolean;
  pending_approval: boolean;
  issued: "api" | "integration" | "jwt";
  idp_id: string;
  /** Salted scrypt hash of the password (see handlers/users.ts), embedded IdP only. */
  password_hash?: string;
  created_at: string;
}

export interface TokenDoc extends Doc {
  /** parent = the user id. */
  parent: string;
  name: string;
  /** base64 SHA-256 of the plain token; the plain value is never stored. */
  hashed_token: string;
  expiration_date: string;
  created_by: string;
  created_at: string;
  last_used: string | null;
}

export interface GroupDoc extends Doc {
  name: string;
  issued: "api" | "integration" | "jwt";
  peers: string[];
  resources: { id: string; type: string }[];
  /** The built-in `All` group: holds every peer, cannot be changed or deleted. */
  builtin?: boolean;
}

export interface PeerDoc extends Doc {
  name: string;
  created_at: string;
  ip: string;
  connection_ip: string;
  connected: boolean;
  last_seen: string;
  os: string;
  kernel_version: string;
  geoname_id: number;
  version: string;
  ssh_enabled: boolean;
  user_id: string;
  hostname: string;
  ui_version: string;
  dns_label: string;
  login_expiration_enabled: boolean;
  login_expired: boolean;
  last_login: string;
  inactivity_expiration_enabled: boolean;
  approval_required: boolean;
  disapproval_reason?: string;
  country_code: string;
  city_name: string;
  serial_number: string;
  extra_dns_labels: string[];
  ephemeral: boolean;
  local_flags: Record<string, boolean>;
  /** WireGuard public key the agent enrolled with. */
  wg_pub_key: string;
  /** Set for peers created by temporary access: the peer they may reach, and their policy ids. */
  temporary_for?: string;
  temporary_policies?: string[];
  /** Id of the setup key that enrolled the peer, if any. */
  setup_key_id?: number;
  /**
   * What the agent reports beyond the API's fields (the simulated agent sets it; posture checks read it). A
   * member left out is unknown to the network map; peers stored before it existed have none.
   */
  meta?: AgentMeta;
}

/** Agent metadata the API does not show (netmap/types.ts, PeerMeta, says how each member is read). */
export interface AgentMeta {
  /** Operating system family: linux, darwin, windows, android, ios, ... */
  goos?: string;
  os_version?: string;
  /** Local addresses with prefix, e.g. 192.168.1.10/24. */
  network_addresses?: string[];
  /** Paths of running processes. */
  processes?: string[];
}

export type Actor = {
  user: UserDoc;
  /** How the caller authenticated. */
  via: "token" | "bearer";
  /** Id of the PAT used, for rate limiting and audit. */
  credentialId: string;
};
