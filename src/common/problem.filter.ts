import { Catch, Logger } from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { toDomainError, toProblem } from './error-mapping';

/**
 * REST errors as application/problem+json. GraphQL errors pass through
 * untouched: Apollo's formatError renders them from the same mapping.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): unknown {
    if (host.getType() !== 'http') return exception;
    const res = host.switchToHttp().getResponse<Response>();
    sendProblem(res, exception, this.logger);
    return undefined;
  }
}

export function sendProblem(res: Response, exception: unknown, logger?: Logger): void {
  if (!toDomainError(exception)) logger?.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  const problem = toProblem(exception);
  if (res.headersSent) return;
  if ((problem.code === 'RATE_LIMITED' || problem.code === 'SERVICE_UNAVAILABLE') && typeof problem.retryAfter === 'number')
    res.setHeader('Retry-After', String(problem.retryAfter));
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
}
