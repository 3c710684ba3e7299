/**
 * The classes the components of `pulumi-privnet` declare their children with: the kinds' own classes, on the
 * dynamic providers (the resource plugin's Construct uses `pulumi-privnet/plugin`'s).
 */
import type { ChildClasses } from "../../components/build";
import {
  DnsRecord,
  DnsZone,
  Group,
  Network,
  NetworkResource,
  NetworkRouter,
  Policy,
  SetupKey,
} from "../resources";

export const CHILD_CLASSES: ChildClasses = {
  Group,
  SetupKey,
  Policy,
  Network,
  NetworkRouter,
  NetworkResource,
  DnsZone,
  DnsRecord,
};
