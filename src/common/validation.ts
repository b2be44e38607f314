import { ValidationPipe } from '@nestjs/common';
import type { ArgumentMetadata } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { DomainError } from './domain-error';
import { cacheValidationMetadata } from './validation-metadata-cache';

export interface FieldError {
  field: string;
  messages: string[];
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    if (e.constraints) out.push({ field, messages: Object.values(e.constraints) });
    if (e.children?.length) out.push(...flatten(e.children, field));
  }
  return out;
}

const AS_SENT = 'scopa:asSent';

/**
 * An object field handed to the handler as the client sent it, its keys
 * unchanged, for a later check that judges every key by name (the engine's
 * option overrides: an unknown option is INVALID_RULESET naming it). The
 * validation pipe would otherwise drop some keys silently before that check:
 * Nest strips `__proto__`, `constructor` and `prototype`, and class-transformer
 * skips the keys that are functions of a new object (`toString`, `valueOf`,
 * `hasOwnProperty`...), so `{"toString": 1}` passed where `{"foo": 1}` is refused.
 */
export function AsSent(): PropertyDecorator {
  return (target, key) => {
    const fields = (Reflect.getMetadata(AS_SENT, target) as string[] | undefined) ?? [];
    Reflect.defineMetadata(AS_SENT, [...fields, String(key)], target);
  };
}

/** The @AsSent fields of an input class (none for anything else). */
export function asSentFields(metatype: unknown): readonly string[] | undefined {
  const prototype = typeof metatype === 'function' ? (metatype as { prototype?: unknown }).prototype : undefined;
  return prototype && typeof prototype === 'object' ? (Reflect.getMetadata(AS_SENT, prototype) as string[] | undefined) : undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The ValidationPipe, but the @AsSent fields skip class-transformer and Nest's key stripping (their other checks still run). */
class InputValidationPipe extends ValidationPipe {
  // Not async itself: most arguments have no @AsSent field, and every argument of every operation comes through here.
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const fields = asSentFields(metadata.metatype);
    if (!fields || !isPlainObject(value)) return super.transform(value, metadata);
    return this.transformAsSent(value, fields, metadata);
  }

  private async transformAsSent(value: Record<string, unknown>, fields: readonly string[], metadata: ArgumentMetadata): Promise<unknown> {
    const copy: Record<string, unknown> = { ...value };
    const held: [string, Record<string, unknown>][] = [];
    for (const f of fields) {
      const v = Object.prototype.hasOwnProperty.call(copy, f) ? copy[f] : undefined;
      // Validated on a stand-in of the same kind (an object): the held value is put back once the rest passed.
      if (isPlainObject(v)) {
        held.push([f, v]);
        copy[f] = {};
      }
    }
    const entity = (await super.transform(copy, metadata)) as Record<string, unknown>;
    for (const [f, v] of held) entity[f] = v;
    return entity;
  }
}

/** class-validator failures become VALIDATION_FAILED with one entry per field. */
export function validationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new InputValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: false,
    exceptionFactory: (errors: ValidationError[]) => {
      const fields = flatten(errors);
      const summary = fields.map((f) => `${f.field}: ${f.messages.join(', ')}`).join('; ');
      return new DomainError('VALIDATION_FAILED', summary || 'invalid input', { errors: fields });
    },
  });
}
