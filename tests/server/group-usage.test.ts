/**
 * A group that something still names cannot be deleted, and the refusal names every user of it: each kind of
 * object that holds group ids, in one message, in a fixed order.
 */
import { defaultSettings } from "../../server/bootstrap";
import { expectError, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ cloud: true, embeddedIdp: true });
});
afterAll(() => s.close());

async function ok(operationId: string, args: { params?: Record<string, string>; body?: unknown } = {}) {
  const res = await s.call(operationId, args);
  if (res.status !== 200) throw new Error(`${operationId}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

test("deleting a group named by every kind that holds group ids names each of them", async () => {
  const g = (await ok("createGroup", { body: { name: "everywhere" } })).id as string;
  const other = (await ok("createGroup", { body: { name: "elsewhere" } })).id as string;
  const rule = { enabled: true, action: "accept", bidirectional: true, protocol: "tcp" };
  const policy = await ok("createPolicy", {
    body: {
      name: "pol",
      enabled: true,
      rules: [
        { ...rule, name: "both", sources: [g], destinations: [g] },
        {
          ...rule,
          name: "ssh",
          sources: [other],
          destinations: [other],
          authorized_groups: { [g]: ["root"] },
        },
      ],
    },
  });
  const route = await ok("createRoute", {
    body: {
      description: "office",
      network_id: "office-net",
      network: "10.0.0.0/16",
      enabled: true,
      metric: 100,
      masquerade: true,
      keep_route: false,
      peer_groups: [other],
      groups: [other],
      access_control_groups: [g],
    },
  });
  const network = await ok("createNetwork", { body: { name: "net" } });
  const router = await ok("createNetworkRouter", {
    params: { networkId: network.id },
    body: { peer_groups: [g], metric: 100, masquerade: true, enabled: true },
  });
  const ns = await ok("createNameserverGroup", {
    body: {
      name: "ns",
      description: "",
      nameservers: [{ ip: "10.0.0.53", ns_type: "udp", port: 53 }],
      enabled: true,
      groups: [g],
      primary: true,
      domains: [],
      search_domains_enabled: false,
    },
  });
  const zone = await ok("createDnsZone", {
    body: { name: "zone", domain: "corp.example", enable_search_domain: false, distribution_groups: [g] },
  });
  const key = await ok("createSetupKey", {
    body: { name: "key", type: "reusable", expires_in: 86400, auto_groups: [g], usage_limit: 0 },
  });
  const user = await ok("createUser", {
    body: { name: "svc", role: "user", auto_groups: [g], is_service_user: true },
  });
  await ok("createEdrVendorA", {
    body: {
      groups: [g],
      last_synced_interval: 24,
      api_token: "token-a",
      api_url: "https://edr-a.example.com/api",
      match_attributes: { firewall_enabled: true },
    },
  });
  const invite = await ok("createInvite", {
    body: { email: "new@example.com", name: "New", role: "user", auto_groups: [g] },
  });
  await ok("updateDnsSettings", { body: { disabled_management_groups: [g] } });
  const d = defaultSettings(false);
  const accountId = (await ok("listAccounts"))[0].id as string;
  await ok("updateAccount", {
    params: { accountId },
    body: {
      settings: {
        peer_login_expiration_enabled: d.peer_login_expiration_enabled,
        peer_login_expiration: d.peer_login_expiration,
        peer_inactivity_expiration_enabled: d.peer_inactivity_expiration_enabled,
        peer_inactivity_expiration: d.peer_inactivity_expiration,
        regular_users_view_blocked: d.regular_users_view_blocked,
        peer_expose_enabled: true,
        peer_expose_groups: [g],
        extra: {
          peer_approval_enabled: false,
          user_approval_required: false,
          network_traffic_logs_enabled: false,
          network_traffic_logs_groups: [g],
          network_traffic_packet_counter_enabled: false,
        },
      },
    },
  });

  const refused = await s.call("deleteGroup", { params: { groupId: g } });
  expectError(refused, 400);
  expect(refused.body.message).toBe(
    "group everywhere is in use by " +
      [
        `policy pol (${policy.id}: rules[0].sources, rules[0].destinations, rules[1].authorized_groups)`,
        `route office-net (${route.id})`,
        `network router ${router.id}`,
        `nameserver group ns (${ns.id})`,
        `DNS zone zone (${zone.id})`,
        `setup key key (${key.id})`,
        `user svc (${user.id})`,
        // The vendor names the stored integration (its API id is a number).
        "EDR integration vendor-a",
        `invite new@example.com (${invite.id})`,
        "DNS settings (disabled_management_groups)",
        "account settings (peer_expose_groups)",
        "account settings (extra.network_traffic_logs_groups)",
      ].join(", "),
  );
  expect((await s.call("getGroup", { params: { groupId: g } })).status).toBe(200);
  // The other group, named only by the rule and the route, is in use by those two alone.
  const alsoRefused = await s.call("deleteGroup", { params: { groupId: other } });
  expectError(alsoRefused, 400);
  expect(alsoRefused.body.message).toBe(
    `group elsewhere is in use by policy pol (${policy.id}: rules[1].sources, rules[1].destinations), ` +
      `route office-net (${route.id})`,
  );
});
