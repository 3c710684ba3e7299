/**
 * The account snapshot the network map is computed from, and the map itself. Field names are the API's
 * (snake_case) where the API has the field; what only an agent reports (network addresses, processes, the
 * operating system family) sits in {@link PeerMeta}, where `undefined` means "not known" and never "none".
 */
import type { PostureCheck } from "../api/posture-check";

/** What a peer's agent reports about its host. Each member left out is unknown (see the module header). */
export interface PeerMeta {
  /** Agent version, e.g. `0.40.1` (the API's `version`). */
  version?: string;
  /** Operating system family as the agent names it: linux, darwin, windows, android, ios (others fail OS checks). */
  goos?: string;
  /** Operating system version (checked for darwin, android and ios), e.g. `14.2.1`. */
  os_version?: string;
  /** Kernel version (checked for linux and windows), e.g. `6.1.0`. */
  kernel_version?: string;
  /** ISO country code of the connection address; `""` = the service could not locate the peer. */
  country_code?: string;
  city_name?: string;
  /** Local network addresses with their prefix, e.g. `192.168.1.10/24`. `[]` = the agent reported none. */
  network_addresses?: string[];
  /** Paths of the processes running on the host. `[]` = none of interest running. */
  processes?: string[];
}

export interface SnapshotPeer {
  id: string;
  name: string;
  ip: string;
  dns_label: string;
  /** Owner; `""` for peers enrolled with a setup key (login and inactivity expiration apply only to users' peers). */
  user_id: string;
  connected: boolean;
  /** RFC 3339 times. */
  last_seen: string;
  last_login: string;
  login_expiration_enabled: boolean;
  inactivity_expiration_enabled: boolean;
  /** The service's own mark that the login has expired (set when the owner was blocked, or by inactivity). */
  login_expired?: boolean;
  approval_required: boolean;
  meta: PeerMeta;
}

export interface SnapshotUser {
  id: string;
  role: string;
  status?: string;
  is_blocked?: boolean;
  pending_approval?: boolean;
}

export interface SnapshotGroup {
  id: string;
  name: string;
  /** Member peer ids (ignored for the built-in group). */
  peers: string[];
  /** Member network resources (and peers of type `peer`). */
  resources: { id: string; type: string }[];
  /** The built-in `All` group: every peer of the account. */
  all?: boolean;
}

export interface ResourceRef {
  id: string;
  type: string;
}

export interface SnapshotRule {
  id: string;
  name: string;
  enabled: boolean;
  /** `accept` or `drop`; any other value grants nothing and is reported as a drop (see the header). */
  action: string;
  bidirectional: boolean;
  /** `all`, `tcp`, `udp`, `icmp` or a protocol the service adds (carried as is). */
  protocol: string;
  ports?: string[];
  port_ranges?: { start: number; end: number }[];
  /** Group ids. */
  sources?: string[];
  destinations?: string[];
  sourceResource?: ResourceRef;
  destinationResource?: ResourceRef;
}

export interface SnapshotPolicy {
  id: string;
  name: string;
  enabled: boolean;
  source_posture_checks?: string[];
  rules: SnapshotRule[];
}

export type SnapshotPostureCheck = Pick<PostureCheck, "id" | "name" | "checks">;

export interface SnapshotRoute {
  id: string;
  network_id: string;
  description?: string;
  enabled: boolean;
  peer?: string;
  peer_groups?: string[];
  network?: string;
  domains?: string[];
  metric: number;
  masquerade: boolean;
  /** Distribution groups. */
  groups: string[];
  access_control_groups?: string[];
  skip_auto_apply?: boolean;
}

export interface SnapshotNetworkResource {
  id: string;
  name: string;
  address: string;
  type: string;
  enabled: boolean;
}

export interface SnapshotNetworkRouter {
  id: string;
  peer?: string;
  peer_groups?: string[];
  metric: number;
  masquerade: boolean;
  enabled: boolean;
}

export interface SnapshotNetwork {
  id: string;
  name: string;
  resources: SnapshotNetworkResource[];
  routers: SnapshotNetworkRouter[];
}

export interface SnapshotNameserverGroup {
  id: string;
  name: string;
  enabled: boolean;
  groups: string[];
  primary: boolean;
  domains: string[];
  search_domains_enabled: boolean;
  nameservers: { ip: string; ns_type: string; port: number }[];
}

export interface SnapshotDnsZone {
  id: string;
  name: string;
  domain: string;
  enabled: boolean;
  enable_search_domain: boolean;
  distribution_groups: string[];
}

export interface SnapshotSettings {
  peer_login_expiration_enabled: boolean;
  /** Seconds. */
  peer_login_expiration: number;
  peer_inactivity_expiration_enabled: boolean;
  /** Seconds. */
  peer_inactivity_expiration: number;
  regular_users_view_blocked?: boolean;
  /** The peers' DNS domain; empty = {@link DEFAULT_DNS_DOMAIN}. */
  dns_domain?: string;
}

/** A reverse-proxy service as the map reads it: where it publishes what, and who may reach it. */
export interface SnapshotProxyService {
  id: string;
  name: string;
  /** The host name it is published at. */
  domain: string;
  enabled: boolean;
  /** `http`, `tcp`, `udp` or `tls`. */
  mode: string;
  listen_port?: number;
  proxy_cluster?: string;
  /** Reachable only by the peers of `access_groups`, over the overlay network. */
  private: boolean;
  access_groups: string[];
  /** The enabled checks (secret values are not the map's business). */
  auth: {
    password: boolean;
    pin: boolean;
    bearer: boolean;
    /** Groups whose users may sign in through SSO; empty: any user of the account. */
    bearer_groups: string[];
    link: boolean;
    /** Header names that must carry a fixed value. */
    headers: string[];
  };
  access_restrictions?: {
    allowed_cidrs?: string[];
    blocked_cidrs?: string[];
    allowed_countries?: string[];
    blocked_countries?: string[];
    crowdsec_mode?: string;
  };
  targets: {
    /** A peer id, a network resource id, or a cluster's address. */
    target_id: string;
    target_type: string;
    /** The address the proxy connects to. */
    host: string;
    port: number;
    protocol: string;
    path?: string;
    enabled: boolean;
  }[];
}

// ---------------------------------------------------------------------------------------------------------------
// Agent Networks: the account's LLM gateway (llm.ts). API names (snake_case) throughout.

/** One half of a cap: tokens (`token_limit`) or US dollars (`budget_limit`), per group bucket and per user. */
export interface SnapshotTokenLimit {
  enabled: boolean;
  /** Tokens per group bucket in a window; 0 = no group cap. */
  group_cap: number;
  /** Tokens per user in a window; 0 = no user cap. */
  user_cap: number;
  window_seconds: number;
}

export interface SnapshotBudgetLimit {
  enabled: boolean;
  /** US dollars per group bucket in a window; 0 = no group cap. */
  group_cap_usd: number;
  user_cap_usd: number;
  window_seconds: number;
}

export interface SnapshotLlmLimits {
  token_limit: SnapshotTokenLimit;
  budget_limit: SnapshotBudgetLimit;
}

/** A model a provider lists, with the operator's prices per 1,000 tokens. */
export interface SnapshotLlmModel {
  id: string;
  input_per_1k: number;
  output_per_1k: number;
}

export interface SnapshotLlmProvider {
  id: string;
  name: string;
  /** The catalog entry it is an instance of (`openai_api`, `custom`, ...). */
  provider_id: string;
  enabled: boolean;
  /** The models it serves; empty: every model (a catch-all). */
  models: SnapshotLlmModel[];
  /** RFC 3339; the older of two providers that may serve a model serves it. */
  created_at?: string;
}

export interface SnapshotLlmPolicy {
  id: string;
  name: string;
  enabled: boolean;
  source_groups: string[];
  destination_provider_ids: string[];
  guardrail_ids: string[];
  limits: SnapshotLlmLimits;
  created_at?: string;
}

export interface SnapshotLlmGuardrail {
  id: string;
  name: string;
  model_allowlist: { enabled: boolean; models: string[] };
}

export interface SnapshotLlmBudgetRule {
  id: string;
  name: string;
  enabled: boolean;
  target_groups: string[];
  /** User ids (a peer enrolled without a user is metered under its peer id). */
  target_users: string[];
  limits: SnapshotLlmLimits;
  created_at?: string;
}

/** A catalog entry's models and default prices (what a provider that lists no price is metered at). */
export interface SnapshotLlmCatalogEntry {
  id: string;
  models: SnapshotLlmModel[];
}

/** The account's Agent Network: its gateway and what governs LLM use through it. */
export interface SnapshotAgentNetwork {
  /** The gateway's host name; empty until the settings are bootstrapped (no gateway then). */
  endpoint: string;
  providers: SnapshotLlmProvider[];
  policies: SnapshotLlmPolicy[];
  guardrails: SnapshotLlmGuardrail[];
  budget_rules: SnapshotLlmBudgetRule[];
  /** The provider catalog (prices only; absent: not read). */
  catalog?: SnapshotLlmCatalogEntry[];
}

/** Everything the map depends on: one account at one moment. */
export interface AccountSnapshot {
  /** The moment the expirations are evaluated at, in ms since the epoch. */
  now: number;
  settings: SnapshotSettings;
  peers: SnapshotPeer[];
  users: SnapshotUser[];
  groups: SnapshotGroup[];
  policies: SnapshotPolicy[];
  posture_checks: SnapshotPostureCheck[];
  routes: SnapshotRoute[];
  networks: SnapshotNetwork[];
  nameserver_groups: SnapshotNameserverGroup[];
  dns_zones: SnapshotDnsZone[];
  dns_settings: { disabled_management_groups: string[] };
  /** Reverse-proxy services (exposure.ts); absent: the account has none, or the server does not serve them. */
  proxy_services?: SnapshotProxyService[];
  /** The Agent Network (llm.ts); absent: the server does not serve it. */
  agent_network?: SnapshotAgentNetwork;
}

// ---------------------------------------------------------------------------------------------------------------
// The map

/** Traffic one way: a protocol and, for tcp and udp, its ports (absent = every port). */
export interface Traffic {
  protocol: string;
  ports?: string[];
}

/** A posture check whose outcome is unknown for a peer: the grant holds only if the peer passes it. */
export interface Dependency {
  posture_check_id: string;
  posture_check_name: string;
  /** The source peer the check is about. */
  peer_id: string;
  /** The metadata that is not known (e.g. `network_addresses`). */
  unknown: string[];
}

/** One rule's contribution to a pair of peers (or a peer and a resource). */
export interface Grant {
  policy_id: string;
  policy_name: string;
  rule_id: string;
  rule_name: string;
  action: string;
  protocol: string;
  /** Ports as `22` or `8000-8999`; absent = every port (or a protocol without ports). */
  ports?: string[];
  /** `out`: this peer may open connections to the other; `in`: the other may open connections to this peer. */
  direction: "in" | "out";
  /** Set when the grant depends on posture checks that cannot be evaluated. */
  depends_on?: Dependency[];
}

export interface PeerAccess {
  peer_id: string;
  name: string;
  ip: string;
  /** The other peer cannot log in now (expired, blocked or pending user): the service lists it as offline. */
  offline: boolean;
  /** Why it cannot log in, when `offline`. */
  offline_reason?: string;
  /** The rules that put the other peer in this map (drop rules too). */
  grants: Grant[];
  /** What may flow after drop rules are applied, from grants that hold for sure. */
  allowed: { out: Traffic[]; in: Traffic[] };
  /** Why a peer is in the map without a rule of its own: it routes a resource for this peer, or this peer routes for it. */
  routing?: string[];
  /** True when every grant depends on a posture check that cannot be evaluated. */
  conditional: boolean;
}

export interface RoutingPeer {
  peer_id: string;
  name: string;
  metric: number;
  masquerade: boolean;
}

export interface ResourceAccess {
  resource_id: string;
  name: string;
  address: string;
  type: string;
  network_id: string;
  network_name: string;
  grants: Grant[];
  allowed: Traffic[];
  routing_peers: RoutingPeer[];
  conditional: boolean;
}

export interface RouteAccess {
  /** The high-availability group: routes with the same network_id and range (or domains). */
  ha_id: string;
  network_id: string;
  network?: string;
  domains?: string[];
  /** 0.0.0.0/0 or ::/0. */
  exit_node: boolean;
  /** False for an exit node with skip_auto_apply: offered to the peer, not applied until chosen. */
  auto_apply: boolean;
  /** The routes of this HA group the peer receives, one per routing peer, lowest metric first. */
  routing_peers: (RoutingPeer & { route_id: string })[];
  /** `all` without access_control_groups; else the traffic the policies allow to those groups. */
  access: "all" | Traffic[];
  /** Grants of the policies towards the access-control groups (empty without them). */
  grants: Grant[];
  conditional: boolean;
}

/** A route this peer is a routing peer of. */
export interface RoutedRoute {
  route_id: string;
  network_id: string;
  network?: string;
  domains?: string[];
  enabled: boolean;
}

export interface DnsMap {
  /** False when one of the peer's groups is in the DNS settings' disabled_management_groups. */
  management_enabled: boolean;
  /** The groups that switch DNS management off for this peer. */
  disabled_by_groups: string[];
  nameserver_groups: {
    id: string;
    name: string;
    primary: boolean;
    domains: string[];
    search_domains_enabled: boolean;
  }[];
  /** Custom zones, plus the peers' own zone first. */
  zones: {
    id?: string;
    name: string;
    domain: string;
    search_domain: boolean;
    records?: { name: string; ip: string }[];
  }[];
}

export type PeerStatus =
  "ok" | "approval_required" | "login_expired" | "inactivity_expired" | "user_blocked" | "user_pending";

export interface PeerMap {
  peer_id: string;
  name: string;
  ip: string;
  status: PeerStatus;
  /** Why the peer gets an empty map, when status is not `ok`. */
  status_reason?: string;
  peers: PeerAccess[];
  resources: ResourceAccess[];
  routes: RouteAccess[];
  /** Routes this peer carries for others. */
  routed: RoutedRoute[];
  dns: DnsMap;
  /** Every posture check whose outcome for some peer of this map is unknown. */
  depends_on: Dependency[];
}

// ---------------------------------------------------------------------------------------------------------------
// What reverse-proxy services publish (exposure.ts)

/** One target a service makes reachable through its proxy cluster. */
export interface ExposedTarget {
  /** A peer, a network resource, or a proxy cluster reached directly. */
  kind: "peer" | "resource" | "cluster";
  id: string;
  /** The peer's or resource's name, or the cluster's address. */
  name: string;
  /** Where the proxy connects (a peer's IP, a resource's address or a host inside a subnet). */
  address: string;
  port: number;
  protocol: string;
  /** The path prefix routed to it (http services). */
  path?: string;
  /** The resource's network. */
  network?: string;
}

/** What one enabled service publishes, and to whom. */
export interface Exposure {
  service_id: string;
  service_name: string;
  /** `https://<domain>` for http services, `<mode>://<domain>:<port>` for the others. */
  url: string;
  mode: string;
  cluster: string;
  /** public: anyone who can connect to the cluster (within `restrictions`, past `auth`); private: `peers`. */
  audience: "public" | "private";
  /** The enabled auth checks (empty for a public service: no check guards it). */
  auth: string[];
  /** Which client addresses may connect (empty: any). */
  restrictions: string[];
  /** A private service's access groups. */
  groups: { id: string; name: string }[];
  /** Their peers: who may reach a private service. */
  peers: { id: string; name: string }[];
  targets: ExposedTarget[];
}
