/** Ingress peers and port allocations (spec 2.19, cloud-only): forward public ports to peers. */
import { intRange, isSet, issue, hasItems, nameString, strLen, z } from "./common";

export const IngressProtocol = z.enum(["tcp", "udp", "tcp/udp"]).describe("Protocol: tcp, udp or tcp/udp");

export const IngressPeerCreateSchema = z
  .object({
    peer_id: strLen(1, 255).describe("Id of the peer that becomes an ingress peer"),
    enabled: z.boolean().describe("Whether the ingress peer forwards traffic"),
    fallback: z
      .boolean()
      .describe("Usable as fallback when no ingress peer exists in the region of the forwarded peer"),
  })
  .describe("Ingress peer create body");

export const IngressPeerUpdateSchema = z
  .object({
    enabled: z.boolean().describe("Whether the ingress peer forwards traffic"),
    fallback: z
      .boolean()
      .describe("Usable as fallback when no ingress peer exists in the forwarded peer's region"),
  })
  .describe("Ingress peer update body");

export const IngressPeerSchema = z
  .strictObject({
    id: z.string().describe("Ingress peer id"),
    peer_id: z.string().describe("Id of the underlying peer"),
    ingress_ip: z.string().describe("Public IP of the ingress peer"),
    available_ports: z
      .strictObject({
        tcp: z.number().int().describe("Free TCP ports"),
        udp: z.number().int().describe("Free UDP ports"),
      })
      .describe("Ports still available"),
    enabled: z.boolean().describe("Whether the ingress peer forwards traffic"),
    connected: z.boolean().describe("Whether the ingress peer is connected"),
    fallback: z.boolean().describe("Usable as fallback"),
    region: z.string().describe("Region of the ingress peer"),
  })
  .describe("Ingress peer");

const portRangeFields = {
  start: intRange(1, 65535).describe("First port"),
  end: intRange(1, 65535).describe("Last port (inclusive)"),
  protocol: IngressProtocol,
};

export const IngressPortRangeSchema = z
  .object(portRangeFields)
  .superRefine((r, ctx) => {
    if (typeof r.start === "number" && typeof r.end === "number" && r.start > r.end)
      issue(ctx, ["end"], "must not be lower than start");
  })
  .describe("A range of ports on the peer to forward");

const directPortFields = {
  count: intRange(1, 100).describe("Number of ports to allocate, 1 to 100"),
  protocol: IngressProtocol,
};

export const DirectPortSchema = z
  .object(directPortFields)
  .describe("Ports allocated directly, without translation");

export const PortAllocationRequestSchema = z
  .object({
    name: nameString().describe("Allocation name"),
    enabled: z.boolean().describe("Whether the allocation forwards traffic"),
    port_ranges: z.array(IngressPortRangeSchema).optional().describe("Port ranges to forward"),
    direct_port: DirectPortSchema.optional().describe("Ports to allocate directly"),
  })
  .superRefine((b, ctx) => {
    if (!hasItems(b.port_ranges) && !isSet(b.direct_port))
      issue(ctx, ["port_ranges"], "is required: set port_ranges or direct_port");
  })
  .describe("Port allocation create or replace body");

export const PortRangeMappingSchema = z
  .strictObject({
    translated_start: z.number().int().describe("First port on the peer"),
    translated_end: z.number().int().describe("Last port on the peer"),
    ingress_start: z.number().int().describe("First public port on the ingress peer"),
    ingress_end: z.number().int().describe("Last public port on the ingress peer"),
    protocol: IngressProtocol,
  })
  .describe("How public ports map to the peer's ports");

export const PortAllocationSchema = z
  .strictObject({
    id: z.string().describe("Allocation id"),
    name: z.string().describe("Allocation name"),
    enabled: z.boolean().describe("Whether the allocation forwards traffic"),
    ingress_peer_id: z.string().describe("Ingress peer that forwards the ports"),
    region: z.string().describe("Region"),
    ingress_ip: z.string().describe("Public IP"),
    port_ranges: z
      .array(z.strictObject(portRangeFields).describe("A forwarded port range"))
      .optional()
      .describe("Forwarded port ranges"),
    direct_port: z.strictObject(directPortFields).optional().describe("Directly allocated ports"),
    port_range_mappings: z.array(PortRangeMappingSchema).describe("Public to peer port mappings"),
  })
  .describe("Ingress port allocation");

export const PortAllocationListQuerySchema = z
  .object({ name: z.string().optional().describe("Only allocations with this name") })
  .describe("Port allocation list filters");

export type IngressPeer = z.infer<typeof IngressPeerSchema>;
export type PortAllocation = z.infer<typeof PortAllocationSchema>;
