/** Peer job (spec 2.7): a diagnostic bundle collected by the agent. */
import { intRange, z } from "./common";

export const JobStatus = z.enum(["pending", "succeeded", "failed"]).describe("Job status");

const bundleParameters = {
  bundle_for: z.boolean().describe("Collect data for a time period before creating the bundle"),
  bundle_for_time: intRange(1, 5, "minutes").describe("Minutes to collect data for, 1 to 5"),
  log_file_count: intRange(1, 1000).describe("Number of log files to include, 1 to 1000"),
  anonymize: z.boolean().describe("Anonymize addresses and names in the bundle"),
};

export const JobCreateSchema = z
  .object({
    workload: z
      .object({
        type: z.literal("bundle", { error: 'must be "bundle"' }).describe("Workload type"),
        parameters: z.object(bundleParameters).describe("Bundle parameters"),
      })
      .describe("The work to do"),
  })
  .describe("Peer job create body");

export const JobSchema = z
  .strictObject({
    id: z.string().describe("Job id"),
    created_at: z.string().describe("Creation time"),
    completed_at: z.string().nullable().describe("Completion time, null while pending"),
    triggered_by: z.string().describe("Id of the user who created the job"),
    status: JobStatus,
    failed_reason: z.string().nullable().describe("Why the job failed, null otherwise"),
    workload: z
      .strictObject({
        type: z.literal("bundle").describe("Workload type"),
        parameters: z.strictObject(bundleParameters).describe("Bundle parameters"),
        result: z
          .strictObject({ upload_key: z.string().describe("Key of the uploaded bundle") })
          .optional()
          .describe("Result of a succeeded job"),
      })
      .describe("The work and its result"),
  })
  .describe("Peer job");

export type Job = z.infer<typeof JobSchema>;
