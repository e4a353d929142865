export type { WriteOptions } from './api.ts';
export { inBackground, RateLimitedError } from './budget.ts';
export {
  type CallOutcome,
  createServiceClient,
  type ServiceClient,
  type ServiceClientOptions,
} from './client.ts';
export type {
  CustomerInput,
  CustomerPage,
  CustomerQuery,
  CustomerRetryInput,
  CustomersApi,
} from './customers.ts';
export type { DocumentsApi, DocumentUpload, UploadOptions } from './documents.ts';
export {
  errorCodes,
  type FieldError,
  isNotFound,
  NetworkError,
  type NetworkErrorKind,
  NotConfiguredError,
  ServiceError,
  sameCode,
  TokenError,
} from './errors.ts';
export type { EventsApi, Paging } from './events.ts';
export {
  type Customer,
  type Delivery,
  type Document,
  HAL_MEDIA_TYPE,
  idFromUrl,
  type Link,
  type ServiceEvent,
  type Subscription,
} from './hal.ts';
export type { Log, LogEntry } from './log.ts';
export type { Timeouts } from './network.ts';
export type { RetryPolicy } from './request-retry.ts';
export { beyondRetention, RETENTION_DAYS, retainedDates } from './retention.ts';
export type { DeliveryQuery, SubscriptionsApi } from './subscriptions.ts';
export type { TokenInfo } from './token.ts';
export type { ServiceDialect, TokenEndpointChoice, TokenForm } from './token-forms.ts';
