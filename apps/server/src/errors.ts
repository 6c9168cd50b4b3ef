import { ErrorCode } from '@gantry/contract';

/** An expected failure: the one error type services throw; the error handler formats it. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Sent as Retry-After: when the client may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code: ErrorCode = ErrorCode.badRequest) => new AppError(400, code, message);
export const validationFailed = (message: string) => new AppError(400, ErrorCode.validationFailed, message);
export const unauthorized = (message = 'Not signed in') => new AppError(401, ErrorCode.unauthorized, message);
export const forbidden = (message = 'You are not allowed to do this') =>
  new AppError(403, ErrorCode.forbidden, message);
export const notFound = (what = 'Object') => new AppError(404, ErrorCode.notFound, `${what} not found`);
export const conflict = (message: string) => new AppError(409, ErrorCode.conflict, message);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  new AppError(429, ErrorCode.tooManyRequests, message, retryAfterSeconds);
