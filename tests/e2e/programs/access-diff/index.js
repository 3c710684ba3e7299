"use strict";
// A program whose stack config decides the access it grants, so that a test changes the config and asks
// privnet-access diff what the change would grant and withdraw (tests/e2e/access-diff.test.ts).
//   ids          the account's group and peer ids (laptops, db, admins, gw)
//   sources      the groups (keys of ids) that policy "app to db" lets reach db on tcp/5432
//   minVersion   when set, "app to db" requires this agent version (a posture check)
//   lab          when true, a network "lab" with the resource lab-db (10.30.0.7) routed by gw, reached by laptops
//   secondUrl    when set (with the secret secondToken), a group on a second server through an explicit provider;
//   second       ...and when true, one more group there
//   publish      when set (a proxy cluster's address), a public reverse-proxy service publishing the resource
//                ids.files at files.<publish>, behind a password (the secret filesPassword)
//   exposeDb     when set (a proxy cluster's address), a public reverse-proxy service "db console" publishing the
//                peer ids.db1 at db.<exposeDb>, without auth
//   pair         when set ({from, to}: two peer ids), two new groups holding one of them each and a policy "pair"
//                from the first to the second on tcp/8080: before apply, which new group is which is unknown
const pulumi = require("@pulumi/pulumi");
const privnet = require("pulumi-privnet");

const config = new pulumi.Config();
const ids = config.requireObject("ids");
const sources = config.getObject("sources") || ["admins"];
const minVersion = config.get("minVersion");

const checks = [];
if (minVersion) {
  const check = new privnet.PostureCheck("min-version", {
    name: "min version",
    description: "",
    checks: { nbVersionCheck: { minVersion } },
  });
  checks.push(check.id);
}
new privnet.Policy("app-to-db", {
  name: "app to db",
  enabled: true,
  sourcePostureChecks: checks,
  rules: [
    {
      name: "postgres",
      enabled: true,
      action: "accept",
      bidirectional: false,
      protocol: "tcp",
      ports: ["5432"],
      sources: sources.map((k) => ids[k]),
      destinations: [ids.db],
    },
  ],
});

if (config.getBoolean("lab")) {
  const labDb = new privnet.Group("lab-db", { name: "lab-db" });
  const lab = new privnet.Network("lab", { name: "lab" });
  new privnet.NetworkResource("lab-db", {
    networkId: lab.id,
    name: "lab-db",
    address: "10.30.0.7",
    enabled: true,
    groups: [labDb.id],
  });
  new privnet.NetworkRouter("lab-gw", {
    networkId: lab.id,
    peer: ids.gw,
    metric: 10,
    masquerade: true,
    enabled: true,
  });
  new privnet.Policy("lab", {
    name: "lab",
    enabled: true,
    rules: [
      {
        name: "lab postgres",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "tcp",
        ports: ["5432"],
        sources: [ids.laptops],
        destinations: [labDb.id],
      },
    ],
  });
}

const publish = config.get("publish");
if (publish) {
  new privnet.ReverseProxyService("files", {
    name: "files",
    domain: `files.${publish}`,
    enabled: true,
    targets: [{ targetId: ids.files, targetType: "host", protocol: "http", port: 8080, enabled: true }],
    auth: { passwordAuth: { enabled: true, password: config.requireSecret("filesPassword") } },
  });
}

const exposeDb = config.get("exposeDb");
if (exposeDb) {
  new privnet.ReverseProxyService("db-console", {
    name: "db console",
    domain: `db.${exposeDb}`,
    enabled: true,
    targets: [{ targetId: ids.db1, targetType: "peer", protocol: "http", port: 8080, enabled: true }],
  });
}

const pair = config.getObject("pair");
if (pair) {
  const from = new privnet.Group("pair-from", { name: "pair-from", peers: [pair.from] });
  const to = new privnet.Group("pair-to", { name: "pair-to", peers: [pair.to] });
  new privnet.Policy("pair", {
    name: "pair",
    enabled: true,
    rules: [
      {
        name: "web",
        enabled: true,
        action: "accept",
        bidirectional: false,
        protocol: "tcp",
        ports: ["8080"],
        sources: [from.id],
        destinations: [to.id],
      },
    ],
  });
}

const secondUrl = config.get("secondUrl");
if (secondUrl) {
  const second = new privnet.Provider("second", {
    apiUrl: secondUrl,
    token: config.requireSecret("secondToken"),
  });
  new privnet.Group("remote", { name: "remote" }, { provider: second });
  if (config.getBoolean("second")) new privnet.Group("remote-2", { name: "remote-2" }, { provider: second });
}
