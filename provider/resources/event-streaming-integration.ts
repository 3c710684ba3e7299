/** Event streaming integration: forwards events to an external platform. */
import {
  EventStreamingCreateSchema,
  EventStreamingSchema,
  EventStreamingUpdateSchema,
  MASKED_CREDENTIAL,
} from "../../api/event-streaming";
import { PrivnetProvider } from "../lifecycle";
import { isRecord, type Props } from "../spec";

export = new PrivnetProvider({
  name: "EventStreamingIntegration",
  file: "event-streaming-integration",
  description:
    "Forwards events to an external platform (datadog, s3, firehose, generic_http). `config` is a secret input: " +
    "the API masks credential values in responses, so those are kept from state while the other settings are " +
    "read back. Changing `platform` creates a new integration.",
  input: EventStreamingCreateSchema,
  output: EventStreamingSchema,
  updateBody: EventStreamingUpdateSchema,
  ops: {
    create: "createEventStreaming",
    read: "getEventStreaming",
    update: "updateEventStreaming",
    delete: "deleteEventStreaming",
  },
  idParam: "id",
  replaceOnChange: ["platform"],
  secretInputs: ["config"],
  // Masked credentials in the response: keep what the program set (create, update) or what state had (read).
  mergeOutputs: (outs: Props, inputs: Props, previous: Props | undefined) => {
    const config: Props = { ...(isRecord(outs.config) ? outs.config : {}) };
    const given = inputs.config ?? previous?.config;
    const known = isRecord(given) ? given : {};
    for (const [k, v] of Object.entries(config)) {
      if (v === MASKED_CREDENTIAL && known[k] !== undefined) config[k] = known[k];
    }
    return { ...outs, config };
  },
});
