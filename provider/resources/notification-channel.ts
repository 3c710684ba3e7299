/** Notification channel: reports account activity by email or to a webhook. */
import {
  MASKED_HEADER_VALUE,
  NotificationChannelInputSchema,
  NotificationChannelSchema,
} from "../../api/notifications";
import { PrivnetProvider } from "../lifecycle";
import { isRecord, type Props } from "../spec";

export = new PrivnetProvider({
  name: "NotificationChannel",
  file: "notification-channel",
  description:
    "Reports account activity (the activity codes of `eventTypes`) by email to `target.emails` or as a webhook " +
    "POST to `target.url` with `target.headers`. `target` is a secret input: webhook header values are " +
    "credentials the API never returns (it masks them), so state keeps the program's, and a webhook URL often " +
    "carries a token of its own. Every change, `type` included, is made in place.",
  input: NotificationChannelInputSchema,
  output: NotificationChannelSchema,
  ops: {
    create: "createNotificationChannel",
    read: "getNotificationChannel",
    update: "updateNotificationChannel",
    delete: "deleteNotificationChannel",
  },
  idParam: "channelId",
  secretInputs: ["target"],
  setLists: ["eventTypes"],
  // Masked header values in the answer: keep what the program set (create, update) or what state had (read).
  mergeOutputs: (outs: Props, inputs: Props, previous: Props | undefined) => {
    if (!isRecord(outs.target) || !isRecord(outs.target.headers)) return outs;
    const given = inputs.target ?? previous?.target;
    const known = isRecord(given) && isRecord(given.headers) ? given.headers : {};
    const headers: Props = { ...outs.target.headers };
    for (const [k, v] of Object.entries(headers)) {
      if (v === MASKED_HEADER_VALUE && known[k] !== undefined) headers[k] = known[k];
    }
    return { ...outs, target: { ...outs.target, headers } };
  },
});
