/** Every component the package offers, in the order the schema, the classes and the docs list them. */
import { DNS_ZONE_BUNDLE } from "./dns-zone-bundle";
import { NETWORK_BUNDLE } from "./network-bundle";
import { SEGMENT } from "./segment";
import type { ComponentSpec } from "./spec";

export const COMPONENTS: readonly ComponentSpec[] = [NETWORK_BUNDLE, DNS_ZONE_BUNDLE, SEGMENT];
