import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsNumber,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';
import type { NumberBounds } from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';

/**
 * Field decorators that give validation (with catalogue message keys) and OpenAPI metadata in one place.
 * A message is `key` or `key::{json params}`; the validation pipe turns it into a translated field error.
 */
export function msg(key: MessageKey, params?: (args: ValidationArguments) => Record<string, unknown>) {
  return (args: ValidationArguments): string => (params ? `${key}::${JSON.stringify(params(args))}` : key);
}

interface Common {
  required?: boolean;
  description?: string;
  example?: unknown;
  /** Message when a required value is missing; the spec's 'Please enter' by default. */
  emptyKey?: MessageKey;
}

function presence(o: Common): PropertyDecorator[] {
  const doc = { description: o.description, example: o.example };
  return o.required === false
    ? [IsOptional(), ApiPropertyOptional(doc)]
    : [IsNotEmpty({ message: msg(o.emptyKey ?? 'pleaseEnter') }), ApiProperty(doc)];
}

/** The largest id and integer PostgreSQL's `int` holds. */
export const INT_MAX = 2_147_483_647;

const INTEGER_TEXT = /^-?\d{1,16}$/;
const DECIMAL_TEXT = /^-?\d{1,16}(\.\d{1,16})?$/;

/**
 * Numbers are numbers: a JSON number stays as it is, and decimal digits in text (query strings, forms) become their
 * number; anything else (`true`, `"0x14"`, `"1e1"`, `" 12"`, `[]`) is left for the validator to refuse, where a plain
 * `Number()` would read `true` as 1 and `"0x14"` as 20. Lists are converted element by element.
 */
export function StrictNumber(o: { decimal?: boolean } = {}): PropertyDecorator {
  const text = o.decimal ? DECIMAL_TEXT : INTEGER_TEXT;
  const one = (value: unknown) => (typeof value === 'string' && text.test(value) ? Number(value) : value);
  return Transform(({ value }) => (Array.isArray(value) ? value.map(one) : one(value)));
}

/** An optional latitude or longitude (or any decimal of NUMBER_BOUNDS): a number within its bounds, never clamped. */
export function Coordinate(bounds: NumberBounds): PropertyDecorator {
  const range = msg('outOfRange', () => ({ min: bounds.min, max: bounds.max }));
  return applyDecorators(
    StrictNumber({ decimal: true }),
    IsOptional(),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: msg('importNotNumber') }),
    Min(bounds.min, { message: range }),
    Max(bounds.max, { message: range }),
    ApiPropertyOptional({ type: Number, nullable: true, minimum: bounds.min, maximum: bounds.max }),
  );
}

/** Each element of a list a record id: a positive integer that PostgreSQL's `int` holds ('invalidValue' otherwise). */
export function EachId(): PropertyDecorator {
  return applyDecorators(
    StrictNumber(),
    IsInt({ each: true, message: msg('invalidValue') }),
    Min(1, { each: true, message: msg('invalidValue') }),
    Max(INT_MAX, { each: true, message: msg('invalidValue') }),
  );
}

/** An optional list of record ids (each as EachId), at most `max` of them ('invalidValue' otherwise). */
export function IdArrayField(o: { max: number; description: string }): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsArray({ message: msg('invalidValue') }),
    ArrayMaxSize(o.max, { message: msg('invalidValue') }),
    EachId(),
    ApiPropertyOptional({ type: [Number], description: o.description }),
  );
}

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

export function TextField(o: Common & { max: number; trim?: boolean } = { max: 255 }): PropertyDecorator {
  return applyDecorators(
    ...(o.trim === false ? [] : [trim]),
    ...presence(o),
    IsString({ message: msg('invalidValue') }),
    MaxLength(o.max, { message: msg('tooLong', (a) => ({ max: a.constraints[0] })) }),
  );
}

export function IntField(o: Common & { min?: number; max?: number } = {}): PropertyDecorator {
  const min = o.min ?? -INT_MAX - 1;
  const max = o.max ?? INT_MAX;
  const range = msg('outOfRange', () => ({ min, max }));
  return applyDecorators(
    StrictNumber(),
    ...presence({ ...o, emptyKey: o.emptyKey ?? 'pleaseSelect' }),
    IsInt({ message: msg('mustBeInteger') }),
    Min(min, { message: range }),
    Max(max, { message: range }),
  );
}

export function BoolField(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) =>
      value === 'true' || value === 1 || value === '1' ? true : value === 'false' || value === 0 || value === '0' ? false : value,
    ),
    ...presence({ ...o, emptyKey: o.emptyKey ?? 'pleaseSelect' }),
    IsBoolean({ message: msg('mustBeBoolean') }),
  );
}

/**
 * The dates the server takes: PostgreSQL has no year 0 and reads a signed year (as Luxon writes years past 9999) as a
 * time zone, and nothing the console records is older than 1970. 9998 leaves room for a period's end (a month later).
 */
export const DATE_RANGE = { min: '1970-01-01', max: '9998-12-31' } as const;

export function yearInRange(year: number): boolean {
  return year >= 1970 && year <= 9998;
}

export function DateField(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    ...presence(o),
    IsISO8601({ strict: true }, { message: msg('mustBeDate') }),
    ValidateBy({
      name: 'dateInRange',
      validator: {
        // ISO 8601 also allows a signed year (+2026-11-21), which PostgreSQL reads as a time zone and refuses.
        validate: (value: unknown) => typeof value !== 'string' || (/^\d{4}/.test(value) && yearInRange(Number(value.slice(0, 4)))),
        defaultMessage: msg('dateOutOfRange', () => DATE_RANGE),
      },
    }),
  );
}

export function EnumField<T extends string | number>(values: readonly T[], o: Common = {}): PropertyDecorator {
  const numeric = typeof values[0] === 'number';
  return applyDecorators(
    ...(numeric ? [StrictNumber()] : []),
    ...presence({ ...o, emptyKey: o.emptyKey ?? 'pleaseSelect' }),
    IsIn(values as unknown as unknown[], { message: msg('invalidValue') }),
    ApiProperty({ enum: values as unknown as (string | number)[], required: o.required !== false }),
  );
}

export function StringListField(values: readonly string[] | null, o: Common & { maxItems?: number } = {}): PropertyDecorator {
  return applyDecorators(
    ...(o.required === false ? [IsOptional()] : []),
    IsArray({ message: msg('invalidValue') }),
    ArrayMaxSize(o.maxItems ?? 50, { message: msg('invalidValue') }),
    IsString({ each: true, message: msg('invalidValue') }),
    ...(values
      ? [
          IsIn(values as string[], {
            each: true,
            // The value may be anything the client sent (null, an object): only a list has an element to name.
            message: msg('unknownPermission', (a) => ({
              name: String(Array.isArray(a.value) ? a.value.find((v) => !values.includes(v as string)) : a.value),
            })),
          }),
        ]
      : []),
    ApiProperty({ type: [String], enum: values ?? undefined, required: o.required !== false, description: o.description }),
  );
}

/** Page number and size shared by every paged query. */
export class PageDto {
  @IntField({ min: 1, max: 1_000_000, example: 1, emptyKey: 'pleaseEnter' })
  pageNum!: number;

  @IntField({ min: 1, max: 200, example: 20, emptyKey: 'pleaseEnter' })
  pageSize!: number;
}

/** A page of the rows of one record (its id): a plan's receivers, a task's screens. */
export class IdPageDto extends PageDto {
  @IntField({ min: 1 })
  id!: number;
}

export class IdQueryDto {
  @IntField({ min: 1 })
  id!: number;
}
