/**
 * Seeds a running privnet-server for the fuzz run: `node bench/fuzz/seed.mts --url URL --token-file F --out DIR`
 *
 * A fuzzer that only ever sends made-up ids learns little beyond "404": this creates a few objects of every kind
 * (peers through the simulated agent, so the server needs --simulate, --cloud and --embedded-idp) and writes
 *
 *   DIR/seeded.toml         dictionaries of the real ids, bound to the path parameters and to the id fields of
 *                           request bodies, each used with a probability below 1 so made-up ids are still sent
 *   DIR/seed-secrets.tsv    `label<TAB>value` of every secret it created (setup keys, personal access tokens,
 *                           invite tokens, IdP / EDR / directory-sync / event-streaming credentials), for the
 *                           secrets sweep to look for in the fuzz run's logs and captured responses
 *
 * The owner's own user id and token ids are kept out of the dictionaries (the server already refuses to delete
 * or block the owner, but the owner may delete its own token, which would end the run's authentication).
 * Invite tokens are not bound either: a fuzzer's record of its own request URLs would then hold them.
 * Node 24 type stripping; node: modules only.
 */

import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? process.argv[i + 1] : fallback;
  if (v === undefined) throw new Error(`missing ${name}`);
  return v;
}

const url = arg("--url");
const token = fs.readFileSync(arg("--token-file"), "utf8").trim();
const out = arg("--out");
const copies = Number(arg("--copies", "3"));

/** Recognisable, unique secret values: `pvs-<label>-<random hex>`. */
const secret = (label: string) => `pvs-${label}-${randomBytes(12).toString("hex")}`;
const secrets: [string, string][] = [];
const keep = (label: string, value: string): string => {
  secrets.push([label, value]);
  return value;
};

async function call(method: string, p: string, body?: unknown, auth: string | null = token): Promise<any> {
  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = `Token ${auth}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${url}${p}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const ids: Record<string, string[]> = {};
/** The parent under which seed() puts every child of a kind (see there). */
const parents: Record<string, string> = {};
const add = (name: string, id: unknown): string => {
  if (typeof id !== "string" && typeof id !== "number") throw new Error(`${name}: no id in ${String(id)}`);
  (ids[name] ??= []).push(String(id));
  return String(id);
};
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function seed(): Promise<void> {
  const account = (await call("GET", "/api/accounts"))[0];
  add("accountId", account.id);

  const groups: string[] = [];
  for (const i of range(copies))
    groups.push(add("groupId", (await call("POST", "/api/groups", { name: `seed-group-${i}` })).id));

  // Peers come from agents: enroll through the simulated agent with a seeded setup key.
  const keys: string[] = [];
  for (const i of range(copies)) {
    const k = await call("POST", "/api/setup-keys", {
      name: `seed-key-${i}`,
      type: "reusable",
      expires_in: 86400 * 30,
      auto_groups: [groups[0]],
      usage_limit: 0,
      allow_extra_dns_labels: true,
    });
    add("keyId", k.id);
    keys.push(keep(`setup key ${k.id}`, k.key));
  }
  const peers: string[] = [];
  for (const i of range(copies * 2)) {
    const p = await call(
      "POST",
      "/sim/enroll",
      { setup_key: keys[0], hostname: `seed-peer-${i}`, os: "linux" },
      null,
    );
    peers.push(add("peerId", p.id));
    await call("POST", `/sim/peers/${p.id}/connect`, {}, null);
  }
  for (const g of groups)
    await call("PUT", `/api/groups/${g}`, {
      name: (await call("GET", `/api/groups/${g}`)).name,
      peers: peers.slice(0, 2),
    });

  // Children (records, resources, routers, tokens, port allocations, jobs) all go under the first parent of
  // their kind, and the config binds that parent for the children's own operations: independent draws of a
  // parent id and a child id would rarely name a real pair.
  for (const i of range(copies)) {
    const pc = await call("POST", "/api/posture-checks", {
      name: `seed-check-${i}`,
      description: "seed",
      checks: { nb_version_check: { min_version: "0.25.0" } },
    });
    add("postureCheckId", pc.id);
    add(
      "policyId",
      (
        await call("POST", "/api/policies", {
          name: `seed-policy-${i}`,
          enabled: true,
          source_posture_checks: [pc.id],
          rules: [
            {
              name: "ssh",
              enabled: true,
              action: "accept",
              bidirectional: false,
              protocol: "tcp",
              ports: ["22"],
              sources: [groups[0]],
              destinations: [groups[1]],
            },
          ],
        })
      ).id,
    );
    add(
      "routeId",
      (
        await call("POST", "/api/routes", {
          description: "seed",
          network_id: `seed-${i}`,
          enabled: true,
          peer: peers[i],
          network: `10.${50 + i}.0.0/16`,
          metric: 9,
          masquerade: true,
          groups: [groups[0]],
          keep_route: true,
        })
      ).id,
    );
    const net = await call("POST", "/api/networks", { name: `seed-net-${i}`, description: "seed" });
    add("networkId", net.id);
    parents.networkId ??= net.id;
    add(
      "resourceId",
      (
        await call("POST", `/api/networks/${parents.networkId}/resources`, {
          name: `seed-res-${i}`,
          address: `10.${60 + i}.0.0/24`,
          enabled: true,
          groups: [groups[1]],
        })
      ).id,
    );
    add(
      "routerId",
      (
        await call("POST", `/api/networks/${parents.networkId}/routers`, {
          peer: peers[i],
          metric: 100,
          masquerade: true,
          enabled: true,
        })
      ).id,
    );
    add(
      "nsgroupId",
      (
        await call("POST", "/api/dns/nameservers", {
          name: `seed-ns-${i}`,
          description: "seed",
          nameservers: [{ ip: "10.0.0.53", ns_type: "udp", port: 53 }],
          enabled: true,
          groups: [groups[0]],
          primary: false,
          domains: [`corp${i}.example`],
          search_domains_enabled: true,
        })
      ).id,
    );
    const zone = await call("POST", "/api/dns/zones", {
      name: `seed-zone-${i}`,
      domain: `zone${i}.example`,
      enable_search_domain: false,
      distribution_groups: [groups[0]],
    });
    add("zoneId", zone.id);
    parents.zoneId ??= zone.id;
    add(
      "recordId",
      (
        await call("POST", `/api/dns/zones/${parents.zoneId}/records`, {
          name: `db${i}.zone0.example`,
          type: "A",
          content: "10.1.0.5",
          ttl: 60,
        })
      ).id,
    );
    const user = await call("POST", "/api/users", {
      name: `seed-svc-${i}`,
      role: "admin",
      auto_groups: [groups[0]],
      is_service_user: true,
    });
    add("userId", user.id);
    parents.tokenUserId ??= user.id;
    const pat = await call("POST", `/api/users/${parents.tokenUserId}/tokens`, {
      name: `seed-${i}`,
      expires_in: 30,
    });
    add("tokenId", pat.personal_access_token.id);
    keep(`personal access token ${pat.personal_access_token.id}`, pat.plain_token);
    const regular = await call("POST", "/api/users", {
      email: `seed-${i}@example.com`,
      name: `Seed ${i}`,
      role: "user",
      auto_groups: [],
      is_service_user: false,
    });
    add("userId", regular.id);
    if (regular.password) keep(`initial password of ${regular.id}`, regular.password);
    const invite = await call("POST", "/api/users/invites", {
      email: `invitee-${i}@example.com`,
      name: `Invitee ${i}`,
      role: "user",
      auto_groups: [groups[0]],
    });
    add("inviteId", invite.id);
    keep(`invite token ${invite.id}`, invite.invite_token);
    add(
      "idpId",
      (
        await call("POST", "/api/identity-providers", {
          type: "oidc",
          name: `seed-idp-${i}`,
          issuer: "https://sso.example.com",
          client_id: "cid",
          client_secret: keep("identity provider client_secret", secret("idp")),
        })
      ).id,
    );
    add(
      "vendorDId",
      (
        await call("POST", "/api/integrations/vendor-d-idp", {
          service_account_key: keep(
            "vendor-d service_account_key",
            Buffer.from(secret("vendor-d")).toString("base64"),
          ),
          customer_id: `C0${i}`,
        })
      ).id,
    );
    add(
      "vendorEId",
      (
        await call("POST", "/api/integrations/vendor-e-idp", {
          client_secret: keep("vendor-e client_secret", Buffer.from(secret("vendor-e")).toString("base64")),
          client_id: "e-client",
          tenant_id: `e-tenant-${i}`,
          host: "api.example.com",
        })
      ).id,
    );
    add(
      "streamingId",
      (
        await call("POST", "/api/event-streaming", {
          platform: "generic_http",
          config: {
            url: "https://hooks.example.com/in",
            auth_token: keep("event streaming auth_token", secret("http")),
          },
          enabled: true,
        })
      ).id,
    );
    const ingress = await call("POST", "/api/ingress/peers", {
      peer_id: peers[i],
      enabled: true,
      fallback: false,
    });
    add("ingressPeerId", ingress.id);
    add(
      "allocationId",
      (
        await call("POST", `/api/peers/${(parents.portsPeerId ??= peers[copies] as string)}/ingress/ports`, {
          name: `seed-ports-${i}`,
          enabled: true,
          port_ranges: [{ start: 8000 + i * 10, end: 8005 + i * 10, protocol: "tcp" }],
        })
      ).id,
    );
    add(
      "jobId",
      (
        await call("POST", `/api/peers/${(parents.jobsPeerId ??= peers[0] as string)}/jobs`, {
          workload: {
            type: "bundle",
            parameters: { bundle_for: false, bundle_for_time: 1, log_file_count: 1, anonymize: true },
          },
        })
      ).id,
    );
  }
  // Reverse proxies: a proxy of the cluster registers through the simulated side, then services (with secrets),
  // custom domains and proxy tokens. The cluster's address is bound to the cluster path parameter rarely: a
  // DELETE of it ends every later service create (no cluster left).
  const proxyToken = await call("POST", "/api/reverse-proxies/proxy-tokens", { name: "seed proxy" });
  keep("proxy token", proxyToken.plain_token);
  await call(
    "POST",
    "/sim/proxies",
    { token: proxyToken.plain_token, address: "fuzz.proxy.example.test" },
    null,
  );
  const rpNetwork = await call("POST", "/api/networks", { name: "seed-rp-network" });
  for (const i of range(copies)) {
    const host = await call("POST", `/api/networks/${rpNetwork.id}/resources`, {
      name: `seed-rp-host-${i}`,
      address: `10.99.0.${i + 1}`,
      enabled: true,
      groups: [],
    });
    add(
      "serviceId",
      (
        await call("POST", "/api/reverse-proxies/services", {
          name: `seed-service-${i}`,
          domain: `svc${i}.fuzz.proxy.example.test`,
          enabled: true,
          targets: [{ target_id: host.id, target_type: "host", protocol: "http", port: 8080, enabled: true }],
          auth: {
            password_auth: { enabled: true, password: keep("service password", secret("rp-password")) },
            header_auths: [
              { enabled: true, header: "X-Seed", value: keep("service header", secret("rp-header")) },
            ],
          },
          access_groups: [groups[0]],
        })
      ).id,
    );
    add(
      "domainId",
      (
        await call("POST", "/api/reverse-proxies/domains", {
          domain: `apps${i}.example.com`,
          target_cluster: "fuzz.proxy.example.test",
        })
      ).id,
    );
    // Not bound to {tokenId}: the personal access tokens' operations name their parameter the same.
    const t = await call("POST", "/api/reverse-proxies/proxy-tokens", { name: `seed-token-${i}` });
    keep("proxy token", t.plain_token);
  }
  // The three EDR integrations are singletons.
  await call("POST", "/api/integrations/edr/vendor-a", {
    groups: [groups[0]],
    last_synced_interval: 24,
    api_token: keep("EDR vendor-a api_token", secret("edr-a")),
    api_url: "https://edr-a.example.com",
    match_attributes: { firewall_enabled: true },
  });
  await call("POST", "/api/integrations/edr/vendor-b", {
    groups: [groups[0]],
    last_synced_interval: 24,
    client_id: "b-client",
    tenant_id: "b-tenant",
    secret: keep("EDR vendor-b secret", secret("edr-b")),
  });
  await call("POST", "/api/integrations/edr/vendor-c", {
    groups: [groups[0]],
    client_id: keep("EDR vendor-c client_id", secret("edr-c-id")),
    secret: keep("EDR vendor-c secret", secret("edr-c")),
    cloud_id: "c-cloud",
    zta_score_threshold: 50,
  });
  for (const [platform, config] of [
    ["datadog", { api_key: keep("datadog api_key", secret("dd")), site: "datadoghq.eu" }],
    [
      "s3",
      {
        bucket_name: "audit",
        region: "eu-central-1",
        access_key_id: keep("s3 access_key_id", secret("s3-id")),
        secret_access_key: keep("s3 secret_access_key", secret("s3-key")),
      },
    ],
  ] as const) {
    add("streamingId", (await call("POST", "/api/event-streaming", { platform, config, enabled: true })).id);
  }
}

/** TOML basic strings are JSON strings for the plain values used here. */
const toml = (v: unknown) => JSON.stringify(v);

function config(): string {
  // The parents of the children are left out of their kind's own dictionary: a DELETE of the parent (which
  // takes its children along) would otherwise end every later test of the children.
  for (const [dictionary, parent] of [
    ["networkId", "networkId"],
    ["zoneId", "zoneId"],
    ["userId", "tokenUserId"],
    ["peerId", "portsPeerId"],
    ["peerId", "jobsPeerId"],
  ]) {
    ids[dictionary as string] = (ids[dictionary as string] ?? []).filter(
      (v) => v !== parents[parent as string],
    );
  }
  const lines: string[] = ["# Generated by bench/fuzz/seed.mts for one fuzz run; not committed."];
  for (const [name, values] of Object.entries(ids)) {
    lines.push("", `[dictionaries.${name}]`, `values = ${toml(values)}`);
  }
  lines.push("", "[dictionaries.clusterAddress]", `values = ${toml(["fuzz.proxy.example.test"])}`);
  const bind = (dictionary: string, p = 0.8) => `{ dictionary = ${toml(dictionary)}, probability = ${p} }`;
  lines.push("", "[parameters]");
  for (const name of Object.keys(ids)) {
    if (name.startsWith("vendor") || name === "streamingId") continue;
    lines.push(`${toml(`path.${name}`)} = ${bind(name)}`);
  }
  lines.push(`${toml("path.clusterAddress")} = { dictionary = "clusterAddress", probability = 0.05 }`);
  // Id fields of request bodies: real ids make more of the fuzzer's bodies pass the referential checks.
  const body: [string, string][] = [
    ["groups[*]", "groupId"],
    ["peer_groups[*]", "groupId"],
    ["auto_groups[*]", "groupId"],
    ["distribution_groups[*]", "groupId"],
    ["access_control_groups[*]", "groupId"],
    ["disabled_management_groups[*]", "groupId"],
    ["rules[*].sources[*]", "groupId"],
    ["rules[*].destinations[*]", "groupId"],
    ["source_posture_checks[*]", "postureCheckId"],
    ["peers[*]", "peerId"],
    ["peer", "peerId"],
    ["peer_id", "peerId"],
  ];
  for (const [p, dictionary] of body) lines.push(`${toml(`body.${p}`)} = ${bind(dictionary, 0.7)}`);
  for (const [regex, param, parent] of [
    ["^/api/networks/\\{networkId\\}/(resources|routers)/\\{", "networkId", "networkId"],
    ["^/api/dns/zones/\\{zoneId\\}/records/\\{", "zoneId", "zoneId"],
    ["^/api/users/\\{userId\\}/tokens/\\{", "userId", "tokenUserId"],
    ["^/api/peers/\\{peerId\\}/ingress/ports/\\{", "peerId", "portsPeerId"],
    ["^/api/peers/\\{peerId\\}/jobs/\\{", "peerId", "jobsPeerId"],
  ]) {
    lines.push(
      "",
      `[dictionaries.parent-${parent}]`,
      `values = ${toml([parents[parent as string]])}`,
      "",
      "[[operations]]",
      `include-path-regex = ${toml(regex)}`,
      `parameters = { ${toml(`path.${param}`)} = ${bind(`parent-${parent}`, 0.9)} }`,
    );
  }
  // `{id}` names a different kind under each integration family.
  for (const [regex, dictionary] of [
    ["^/api/event-streaming/", "streamingId"],
    ["^/api/integrations/vendor-d-idp/", "vendorDId"],
    ["^/api/integrations/vendor-e-idp/", "vendorEId"],
  ]) {
    lines.push(
      "",
      "[[operations]]",
      `include-path-regex = ${toml(regex)}`,
      `parameters = { "path.id" = ${bind(dictionary as string)} }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

seed().then(
  () => {
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, "seeded.toml"), config());
    fs.writeFileSync(
      path.join(out, "seed-secrets.tsv"),
      secrets.map(([label, value]) => `${label}\t${value}`).join("\n") + "\n",
      { mode: 0o600 },
    );
    const total = Object.values(ids).reduce((n, v) => n + v.length, 0);
    process.stdout.write(
      `seed: ${total} objects of ${Object.keys(ids).length} kinds, ${secrets.length} secrets\n`,
    );
  },
  (err: unknown) => {
    process.stderr.write(`seed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
