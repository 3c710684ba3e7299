/**
 * The typed HTTP client of the management API. The provider and the lookups use this; nothing else builds URLs.
 */
export { PrivnetClient } from "./client";
export type {
  CallArgs,
  ClientObserver,
  ClientOptions,
  QueryParams,
  RateLimitWait,
  RequestArgs,
  RetryInfo,
} from "./client";
export {
  PrivnetApiError,
  PrivnetConnectionError,
  isNotFound,
  isPrivnetApiError,
  isPrivnetConnectionError,
} from "./errors";
export type { RateLimit } from "./rate-limit";
export type { HttpMethod } from "./retry";
