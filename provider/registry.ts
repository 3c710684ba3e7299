/** Every resource kind's provider. A kind is enabled by being listed here (docs, sdk and tests follow). */
import accountSettings = require("./resources/account-settings");
import agentNetworkBudgetRule = require("./resources/agent-network-budget-rule");
import agentNetworkGuardrail = require("./resources/agent-network-guardrail");
import agentNetworkPolicy = require("./resources/agent-network-policy");
import agentNetworkProvider = require("./resources/agent-network-provider");
import agentNetworkSettings = require("./resources/agent-network-settings");
import directorySyncVendorD = require("./resources/directory-sync-vendor-d");
import directorySyncVendorE = require("./resources/directory-sync-vendor-e");
import dnsRecord = require("./resources/dns-record");
import dnsSettings = require("./resources/dns-settings");
import dnsZone = require("./resources/dns-zone");
import edrVendorA = require("./resources/edr-vendor-a");
import edrVendorB = require("./resources/edr-vendor-b");
import edrVendorC = require("./resources/edr-vendor-c");
import eventStreamingIntegration = require("./resources/event-streaming-integration");
import group = require("./resources/group");
import identityProvider = require("./resources/identity-provider");
import ingressPeer = require("./resources/ingress-peer");
import ingressPortAllocation = require("./resources/ingress-port-allocation");
import nameserverGroup = require("./resources/nameserver-group");
import network = require("./resources/network");
import networkResource = require("./resources/network-resource");
import networkRouter = require("./resources/network-router");
import notificationChannel = require("./resources/notification-channel");
import oktaScimIntegration = require("./resources/okta-scim-integration");
import peer = require("./resources/peer");
import personalAccessToken = require("./resources/personal-access-token");
import policy = require("./resources/policy");
import postureCheck = require("./resources/posture-check");
import proxyToken = require("./resources/proxy-token");
import reverseProxyDomain = require("./resources/reverse-proxy-domain");
import reverseProxyService = require("./resources/reverse-proxy-service");
import route = require("./resources/route");
import scimIntegration = require("./resources/scim-integration");
import setupKey = require("./resources/setup-key");
import user = require("./resources/user");
import userInvite = require("./resources/user-invite");
import type { PrivnetProvider } from "./lifecycle";

export const PROVIDERS: readonly PrivnetProvider[] = [
  group,
  policy,
  postureCheck,
  route,
  network,
  networkResource,
  networkRouter,
  nameserverGroup,
  dnsSettings,
  dnsZone,
  dnsRecord,
  setupKey,
  user,
  personalAccessToken,
  userInvite,
  peer,
  identityProvider,
  accountSettings,
  edrVendorA,
  edrVendorB,
  edrVendorC,
  directorySyncVendorD,
  directorySyncVendorE,
  eventStreamingIntegration,
  scimIntegration,
  oktaScimIntegration,
  notificationChannel,
  ingressPeer,
  ingressPortAllocation,
  reverseProxyService,
  reverseProxyDomain,
  proxyToken,
  agentNetworkSettings,
  agentNetworkProvider,
  agentNetworkGuardrail,
  agentNetworkPolicy,
  agentNetworkBudgetRule,
];
