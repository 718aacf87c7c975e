/** Public surface of the gateway client. Pure TypeScript: never imports vscode. */

export { createGatewayClient } from './client';
export { normaliseBaseUrl } from './baseUrl';
export {
  CLIENT_VERSION,
  DEFAULT_TIMEOUTS,
  DEFAULT_USER_AGENT,
  resolveRetry,
  resolveTimeouts,
} from './config';
export { createHttpError, requestIdFrom } from './errorFactory';
export { parseErrorBody } from './errorBody';
export {
  AuthError,
  BadRequestError,
  ConnectionError,
  ContextLengthError,
  GatewayError,
  ImageError,
  MalformedResponseError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  RequestTooLargeError,
  ServerError,
  StreamError,
  TimeoutError,
  TruncatedStreamError,
  UserAbortError,
  ValidationError,
  isGatewayError,
  redactSecret,
} from './errors';
export type { GatewayErrorKind, ImageErrorReason, TimeoutPhase } from './errors';
export { detectImageFormat } from './imageFormat';
export {
  CONTEXT_TOKENS,
  DEFAULT_IMAGE_MODEL,
  IMAGE_MODELS,
  TEXT_MODELS,
  findImageModel,
  findModel,
  isThinkingModel,
  listChatModels,
} from './models';
export type { ImageModelInfo, ModelInfo } from './models';
export { settledReasoning } from './settledReasoning';
export { ThinkTagSplitter } from './thinkTags';
export { IMAGE_QUALITIES, IMAGE_RESPONSE_FORMATS, IMAGE_SIZES } from './types';
export type * from './types';
