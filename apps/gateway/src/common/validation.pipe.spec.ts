import 'reflect-metadata';
import { LoginDto } from '../auth/dto/auth.dto';
import { LampIdsDto } from '../lighting/dto/equipment.dto';
import { CreateRegionDto } from '../regions/dto/region.dto';
import { StrategyAddOrEditDto } from '../strategies/dto/strategy.dto';
import { CreateUserDto, GroupAddOrEditDto, UserPageDto } from '../users/dto/users.dto';
import { AppException } from './app-exception';
import { createValidationPipe, decodeMessage } from './validation.pipe';

describe('decodeMessage', () => {
  it('reads a bare catalogue key', () => {
    expect(decodeMessage('pleaseEnter')).toEqual({ key: 'pleaseEnter' });
    expect(decodeMessage('mustBeInteger')).toEqual({ key: 'mustBeInteger' });
  });

  it('reads a key with JSON parameters', () => {
    expect(decodeMessage('tooLong::{"max":64}')).toEqual({ key: 'tooLong', params: { max: 64 } });
    expect(decodeMessage('outOfRange::{"min":1,"max":200}')).toEqual({ key: 'outOfRange', params: { min: 1, max: 200 } });
    expect(decodeMessage('unknownPermission::{"name":"a::b"}')).toEqual({ key: 'unknownPermission', params: { name: 'a::b' } });
  });

  it("turns a library's own English sentence into the generic invalid-value key", () => {
    expect(decodeMessage('property role should not exist')).toEqual({ key: 'invalidValue' });
    expect(decodeMessage('each value in permissionMenu must be a string')).toEqual({ key: 'invalidValue' });
  });
});

describe('createValidationPipe', () => {
  const pipe = createValidationPipe();
  const problems = async (metatype: new () => unknown, value: unknown) => {
    try {
      await pipe.transform(value, { type: 'body', metatype, data: '' });
    } catch (err) {
      expect(err).toBeInstanceOf(AppException);
      const ex = err as AppException;
      expect(ex.status).toBe(400);
      expect(ex.key).toBe('validationField');
      return ex.fields;
    }
    throw new Error('expected a validation error');
  };

  it('reports one problem per missing field, with the key of that field', async () => {
    expect(await problems(CreateUserDto, {})).toEqual([
      { field: 'username', key: 'pleaseEnter' },
      { field: 'password', key: 'pleaseEnter' },
      { field: 'groupId', key: 'selectGroup' },
    ]);
    expect(await problems(CreateRegionDto, { regionName: '  ' })).toEqual([{ field: 'regionName', key: 'nameEmpty' }]);
  });

  it('reports wrong types, limits with their parameters, and unexpected fields', async () => {
    const found = await problems(UserPageDto, { pageNum: 'x', pageSize: 201, enabled: 'maybe', extra: 1 });
    expect(found).toHaveLength(4);
    expect(found).toEqual(
      expect.arrayContaining([
        { field: 'pageNum', key: 'mustBeInteger' },
        { field: 'pageSize', key: 'outOfRange', params: { min: 1, max: 200 } },
        { field: 'enabled', key: 'mustBeBoolean' },
        { field: 'extra', key: 'unexpectedField' },
      ]),
    );
    expect(await problems(CreateRegionDto, { regionName: 'x'.repeat(65) })).toEqual([{ field: 'regionName', key: 'tooLong', params: { max: 64 } }]);
  });

  it('trims texts, converts numbers and booleans, and keeps passwords as typed', async () => {
    const dto = (await pipe.transform(
      { username: '  op01 ', password: ' Secret2026 ', groupId: '3', enabled: 'false' },
      { type: 'body', metatype: CreateUserDto, data: '' },
    )) as CreateUserDto;
    expect(dto).toBeInstanceOf(CreateUserDto);
    expect({ ...dto }).toEqual({ username: 'op01', password: ' Secret2026 ', groupId: 3, enabled: false });
  });

  it('reuses the validated object of a short repeated input, but never keeps a long one', async () => {
    const fresh = createValidationPipe();
    const meta = { type: 'body' as const, metatype: UserPageDto, data: '' };
    const first = await fresh.transform({ pageNum: 1, pageSize: 20 }, meta);
    expect(await fresh.transform({ pageNum: 1, pageSize: 20 }, meta)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Unknown query parameters are dropped, so a long one still makes a valid input.
    const query = { type: 'query' as const, metatype: UserPageDto, data: '' };
    const short = { pageNum: 1, pageSize: 20, t: 'x' };
    expect(await fresh.transform(short, query)).toBe(await fresh.transform(short, query));
    const long = { pageNum: 1, pageSize: 20, t: 'x'.repeat(5_000) };
    const once = await fresh.transform(long, query);
    expect(once).toEqual({ pageNum: 1, pageSize: 20 });
    expect(await fresh.transform(long, query)).not.toBe(once);
  });

  it('keeps a bounded memo: an input pushed out by newer ones is validated again', async () => {
    // The memo holds 100,000 characters here (2,000,000 in the gateway).
    const fresh = createValidationPipe(100_000);
    const meta = { type: 'body' as const, metatype: UserPageDto, data: '' };
    const input = (n: number) => ({ pageNum: 1, pageSize: 20, username: `u${n}`.padEnd(30, 'a') });
    const first = await fresh.transform(input(1), meta);
    expect(await fresh.transform(input(1), meta)).toBe(first);
    // Keys of about 80 characters: some 1,200 fit in 100,000; 1,000 inputs keep the first, 2,000 push it out.
    for (let n = 2; n <= 1_000; n++) await fresh.transform(input(n), meta);
    expect(await fresh.transform(input(1), meta)).toBe(first);
    for (let n = 1_001; n <= 2_000; n++) await fresh.transform(input(n), meta);
    expect(await fresh.transform(input(1), meta)).not.toBe(first);
  });

  it('takes numbers as numbers: digits in text are read, true, hex, exponents and padded text are not', async () => {
    for (const pageNum of [true, '0x14', '1e1', ' 12', '12 ', '1.0', [], {}]) {
      expect(await problems(UserPageDto, { pageNum, pageSize: 20 })).toEqual([{ field: 'pageNum', key: 'mustBeInteger' }]);
    }
    const dto = (await pipe.transform({ pageNum: '12', pageSize: '20' }, { type: 'query', metatype: UserPageDto, data: '' })) as UserPageDto;
    expect({ pageNum: dto.pageNum, pageSize: dto.pageSize }).toEqual({ pageNum: 12, pageSize: 20 });
  });

  it('refuses ids PostgreSQL cannot hold, and ids that are not numbers, in a list', async () => {
    for (const id of [2_147_483_648, 1e300, '9999999999', true, '0x14', 0, -1, 1.5]) {
      expect(await problems(LampIdsDto, { ids: [1, id] })).toEqual([{ field: 'ids', key: 'invalidValue' }]);
    }
    const dto = (await pipe.transform({ ids: [1, '2', 2_147_483_647] }, { type: 'body', metatype: LampIdsDto, data: '' })) as LampIdsDto;
    expect(dto.ids).toEqual([1, 2, 2_147_483_647]);
  });

  it('refuses a body nested 100,000 deep, or deeper than 32, without running out of stack', async () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(await problems(LoginDto, { username: 'admin', password: 'x', extra: deep })).toEqual([
      { field: 'extra.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a', key: 'invalidValue' },
    ]);
    let nested: unknown = 1;
    for (let i = 0; i < 40; i++) nested = [nested];
    expect(await problems(UserPageDto, { pageNum: 1, pageSize: 20, username: nested })).toEqual([
      { field: `username${'.0'.repeat(31)}`, key: 'invalidValue' },
    ]);
  });

  it('refuses NUL characters in values and keys before they reach PostgreSQL', async () => {
    expect(await problems(CreateRegionDto, { regionName: 'North\u0000' })).toEqual([{ field: 'regionName', key: 'invalidValue' }]);
    expect(await problems(UserPageDto, { pageNum: 1, pageSize: 20, ['user\u0000name']: 'x' })).toEqual([{ field: 'body', key: 'invalidValue' }]);
  });

  it('answers a field error, never a crash, for a permission list that is not a list', async () => {
    for (const permissionMenu of [null, undefined, {}, { a: 1 }, 'userManage', 7]) {
      const found = await problems(GroupAddOrEditDto, { groupName: 'Night', isAdmin: 0, permissionMenu });
      expect(found.map((p) => p.field)).toEqual(['permissionMenu']);
    }
    expect(await problems(GroupAddOrEditDto, { groupName: 'Night', isAdmin: 0, permissionMenu: ['nope'] })).toEqual([
      { field: 'permissionMenu', key: 'unknownPermission', params: { name: 'nope' } },
    ]);
  });

  it('refuses a strategy mode given as a list', async () => {
    for (const mode of [[2], ['2'], [], { 0: 2 }]) {
      const found = await problems(StrategyAddOrEditDto, { name: 'Weeknights', mode, modeData: {}, periods: [] });
      expect(found).toEqual([{ field: 'mode', key: 'invalidValue' }]);
    }
  });
});
