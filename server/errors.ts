/**
 * The one error type of the server. The wire shape is the real service's: `{"message": string, "code": status}`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Guard that does not rely on `instanceof` alone (errors may cross module copies). */
export function isApiError(e: unknown): e is ApiError {
  return (
    e instanceof ApiError ||
    (typeof e === "object" &&
      e !== null &&
      (e as { name?: unknown }).name === "ApiError" &&
      typeof (e as { status?: unknown }).status === "number")
  );
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = "unauthenticated") => new ApiError(401, message);
export const forbidden = (message = "permission denied") => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const preconditionFailed = (message: string) => new ApiError(412, message);
/** Validation failure: the message must name the field (`metric: must be between 1 and 9999`). */
export const invalid = (message: string) => new ApiError(422, message);
