/** Posture check: conditions a peer must meet to be a policy source. */
import { PostureCheckRequestSchema, PostureCheckSchema } from "../../api/posture-check";
import { PrivnetProvider } from "../lifecycle";

export = new PrivnetProvider({
  name: "PostureCheck",
  file: "posture-check",
  description:
    "A posture check: minimum agent and OS versions, allowed locations, local network ranges and required " +
    "processes. Policies list posture checks in `sourcePostureChecks`.",
  input: PostureCheckRequestSchema,
  output: PostureCheckSchema,
  ops: {
    create: "createPostureCheck",
    read: "getPostureCheck",
    update: "updatePostureCheck",
    delete: "deletePostureCheck",
  },
  idParam: "postureCheckId",
});
