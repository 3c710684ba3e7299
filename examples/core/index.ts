/**
 * Composition, part 1 (see ../app): the core of the network that other stacks build on. It owns the groups and
 * the posture check and exports their ids; application stacks read them with a StackReference instead of
 * looking objects up by name, so a rename here cannot silently break them.
 */
import * as privnet from "pulumi-privnet";

const platform = new privnet.Group("platform", { name: "platform" });
const developers = new privnet.Group("developers", { name: "developers" });

const managedDevices = new privnet.PostureCheck("managed-devices", {
  name: "managed devices",
  description: "Company laptops: recent agent, inside the office or VPN ranges",
  checks: {
    nbVersionCheck: { minVersion: "0.30.0" },
    peerNetworkRangeCheck: { ranges: ["10.10.0.0/16", "192.168.0.0/16"], action: "allow" },
  },
});

// Peers enrolled with this key join the platform group: they route for the application networks.
const platformKey = new privnet.SetupKey("platform-enrollment", {
  name: "platform enrollment",
  type: "reusable",
  expiresIn: 30 * 86400,
  autoGroups: [platform.id],
  usageLimit: 0,
});

export const platformGroupId = platform.id;
export const developersGroupId = developers.id;
export const postureCheckId = managedDevices.id;
/** A secret output: other stacks can read it through a StackReference (as a secret). */
export const platformSetupKey = platformKey.key;
