// Turns any non-2xx answer into an ApiError, whichever of the API's four error body shapes it carries.
import { ApiError, type FieldError } from '../errors.js';
import { redactSecrets } from '../redact.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const asString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** A field message as text; anything but a plain value (a nested array, say) is summarized, never recursed. */
const messageText = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : Array.isArray(value)
      ? '(a nested list)'
      : '(an object)';

function fieldErrorsOf(value: unknown): FieldError[] {
  if (!isObject(value)) return [];
  return Object.entries(value).map(([field, messages]) => ({
    field,
    messages: (Array.isArray(messages) ? messages : [messages]).map(messageText),
  }));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request',
  401: 'not authenticated',
  403: 'forbidden',
  404: 'not found',
  409: 'conflict',
  413: 'request too large',
  422: 'validation failed',
  428: 'setup required',
  429: 'rate limited',
  500: 'server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  // An empty (or blank) header says nothing: Number('') is 0, which would be a retry at once.
  if (header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * Shapes: plain `{message}`; validation `{message, errors}`; coded `{success, error_code, message, errors, data}`;
 * legacy `{success:false, error, data:{message}, errors?}`. The status decides that it is an error, never `success`.
 */
export function parseApiError(
  status: number,
  bodyText: string,
  retryAfter?: number,
  request?: { method: string; path: string },
): ApiError {
  // A token the server echoes is gone from the error itself, so no use of it (stderr, doctor, bulk results and
  // journals) can show it.
  bodyText = redactSecrets(bodyText);
  let body: unknown = bodyText;
  try {
    body = bodyText === '' ? undefined : JSON.parse(bodyText);
  } catch {
    // Not JSON (a proxy's HTML page, say): keep the text, say only the status.
  }
  const fallback = `HTTP ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ''}`;
  if (!isObject(body)) {
    return new ApiError({
      status,
      message: fallback,
      body,
      bodyText,
      retryAfterSeconds: retryAfter,
      request,
    });
  }

  const data = isObject(body.data) ? body.data : undefined;
  const message =
    asString(body.message) ??
    asString(data?.message) ??
    asString(body.error) ??
    asString(body.error_code) ??
    fallback;
  return new ApiError({
    status,
    code: asString(body.error_code),
    message,
    fieldErrors: fieldErrorsOf(body.errors),
    nextStep: asString(data?.next_step),
    retryAfterSeconds: retryAfter,
    body,
    bodyText,
    request,
  });
}
