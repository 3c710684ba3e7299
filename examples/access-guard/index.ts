/**
 * The access guard (docs/access-guard.md): the network of a small team, with access tests that run inside
 * `pulumi preview` and `pulumi up`:
 *
 *   pulumi up --policy-pack node_modules/pulumi-privnet/policy --policy-pack-config policy-config.json
 *
 * Three groups, each filled by the devices that enroll with its setup key (laptops, application servers,
 * databases); laptops reach the application servers over https, the application servers reach the database over
 * postgres. `access-tests.yaml` says what must hold. Two changes to try once devices have enrolled (see the
 * README of the examples):
 *
 * - `pulumi config set dbClients '["app-servers","laptops"]'` opens the database to laptops: the access test
 *   "laptops never reach the database" fails and `pulumi up` stops before anything is applied;
 * - `pulumi config set appPorts '["443","8443"]'` is harmless: `up` goes on, and the pack lists the access it
 *   grants and withdraws.
 */
import * as pulumi from "@pulumi/pulumi";
import * as privnet from "pulumi-privnet";

const config = new pulumi.Config();
/** Groups (by key below) whose peers may reach the database on postgres. */
const dbClients = config.getObject<string[]>("dbClients") ?? ["app-servers"];
/** The ports laptops reach the application servers on. */
const appPorts = config.getObject<string[]>("appPorts") ?? ["443"];

/** A group and the setup key whose devices join it (a new group has no peers until a device enrolls). */
function team(key: string, name: string): { group: privnet.Group; setupKey: pulumi.Output<string> } {
  const group = new privnet.Group(key, { name });
  const enrollment = new privnet.SetupKey(`${key}-enrollment`, {
    name: `${name} enrollment`,
    type: "reusable",
    expiresIn: 30 * 86400,
    autoGroups: [group.id],
    usageLimit: 0,
  });
  return { group, setupKey: enrollment.key };
}

const teams: Record<string, { group: privnet.Group; setupKey: pulumi.Output<string> }> = {
  laptops: team("laptops", "laptops"),
  "app-servers": team("app-servers", "app-servers"),
  databases: team("databases", "databases"),
};
const groups: Record<string, privnet.Group> = Object.fromEntries(
  Object.entries(teams).map(([k, t]) => [k, t.group]),
);

const rule = (name: string, sources: privnet.Group[], destination: privnet.Group, ports: string[]) => ({
  name,
  enabled: true,
  action: "accept" as const,
  bidirectional: false,
  protocol: "tcp" as const,
  ports,
  sources: sources.map((g) => g.id),
  destinations: [destination.id],
});

new privnet.Policy("laptops-to-apps", {
  name: "laptops to apps",
  enabled: true,
  rules: [rule("https", [groups.laptops], groups["app-servers"], appPorts)],
});

new privnet.Policy("apps-to-db", {
  name: "apps to db",
  enabled: true,
  rules: [
    rule(
      "postgres",
      dbClients.map((k) => {
        const g = groups[k];
        if (!g)
          throw new Error(
            `dbClients: no group ${JSON.stringify(k)} (groups: ${Object.keys(groups).join(", ")})`,
          );
        return g;
      }),
      groups.databases,
      ["5432"],
    ),
  ],
});

/** Enroll devices with these (secrets): `privnet-server sim enroll --setup-key KEY --hostname laptop --count 2`. */
export const laptopsSetupKey = teams.laptops.setupKey;
export const appServersSetupKey = teams["app-servers"].setupKey;
export const databasesSetupKey = teams.databases.setupKey;
