// The API's four error body shapes, a typed error carrying a ready answer, and the writers (JSON or bytes).
import type { ServerResponse } from 'node:http';

export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type FieldErrors = Record<string, string[]>;

/** Thrown anywhere below the API router to answer with a specific status and body. */
export class ApiError extends Error {
  constructor(readonly response: ApiResponse) {
    super(`API error ${response.status}`);
  }
}

export function plainError(status: number, message: string): ApiResponse {
  return { status, body: { message } };
}

export function legacyError(status: number, message: string): ApiResponse {
  return { status, body: { success: false, error: message, data: { message } } };
}

export function codedError(
  status: number,
  code: string,
  message: string,
  options: { data?: unknown; success?: boolean } = {},
): ApiResponse {
  const body = {
    success: options.success ?? false,
    error_code: code,
    message,
    errors: null,
    data: options.data ?? null,
  };
  return { status, body };
}

/** The coded 404 of the newer resources; older ones answer `legacyError(404, …)`. */
export const resourceNotFound = (message: string) => codedError(404, 'RESOURCE_NOT_FOUND', message);

/** Laravel's summary: the first message, plus how many more there are. */
export function validationError(errors: FieldErrors): ApiResponse {
  const messages = Object.values(errors).flat();
  const extra = messages.length - 1;
  const first = messages[0] ?? 'The given data was invalid.';
  const message = extra > 0 ? `${first} (and ${extra} more error${extra === 1 ? '' : 's'})` : first;
  return { status: 422, body: { message, errors } };
}

export const unauthenticated = () => plainError(401, 'Unauthenticated.');
export const serverFault = () =>
  codedError(500, 'SERVER_ERROR', 'Unexpected server fault.', { data: null, success: false });

/** A non-JSON answer (a PDF download): the body is sent as is, with its own Content-Type. */
export function fileResponse(bytes: Buffer, contentType: string, filename: string): ApiResponse {
  return {
    status: 200,
    body: bytes,
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`,
    },
  };
}

/** Writes byte bodies as they are and everything else as JSON. */
export function sendResponse(res: ServerResponse, response: ApiResponse): void {
  if (!Buffer.isBuffer(response.body)) return sendJson(res, response);
  if (res.headersSent || res.destroyed) return;
  res.writeHead(response.status, {
    'Content-Type': 'application/octet-stream',
    ...response.headers,
    'Content-Length': response.body.length,
  });
  res.end(response.body);
}

export function sendJson(res: ServerResponse, response: ApiResponse): void {
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify(response.body);
  res.writeHead(response.status, {
    ...response.headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(payload),
  });
  res.end(payload);
}
