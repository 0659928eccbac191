/** Realtime filter parsing and matching, and Phoenix frame decoding, without a stack. */
import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter } from '../src/realtime/filters.ts';
import { decodeFrame } from '../src/realtime/protocol.ts';

describe('parseFilter', () => {
  it('parses the operators realtime-js users write', () => {
    expect(parseFilter('user_id=eq.5b1c2a9e-7d3f-4c4e-9a61-0c2f6b1e8a01')).toEqual({
      column: 'user_id',
      op: 'eq',
      values: ['5b1c2a9e-7d3f-4c4e-9a61-0c2f6b1e8a01'],
    });
    expect(parseFilter('total=gte.2999')).toEqual({ column: 'total', op: 'gte', values: ['2999'] });
    expect(parseFilter('status=in.(Pagado,"Con, coma",Enviado)')).toEqual({
      column: 'status',
      op: 'in',
      values: ['Pagado', 'Con, coma', 'Enviado'],
    });
    // The value may itself contain dots and equals signs.
    expect(parseFilter('label=eq.a.b=c').values).toEqual(['a.b=c']);
  });

  it('refuses malformed filters with a reason', () => {
    for (const bad of ['', 'user_id', '=eq.1', 'user_id=eq', 'user_id=zz.1', 'a b=eq.1', 'x=in.1,2', 'x=in.("abierta)']) {
      expect(() => parseFilter(bad), bad).toThrow();
    }
  });
});

describe('matchesFilter', () => {
  const row = { id: 7, status: 'Pagado', total: '3100.50', user_id: 'abc', created_at: '2026-11-22T10:00:00+00:00', note: null };

  it('compares numbers as numbers, text as text and timestamps as instants', () => {
    expect(matchesFilter(parseFilter('id=eq.7'), row)).toBe(true);
    expect(matchesFilter(parseFilter('id=neq.7'), row)).toBe(false);
    expect(matchesFilter(parseFilter('total=gt.999'), row)).toBe(true);
    expect(matchesFilter(parseFilter('total=lt.999'), row)).toBe(false);
    expect(matchesFilter(parseFilter('total=lte.3100.5'), row)).toBe(true);
    expect(matchesFilter(parseFilter('status=eq.Pagado'), row)).toBe(true);
    expect(matchesFilter(parseFilter('status=eq.pagado'), row)).toBe(false);
    expect(matchesFilter(parseFilter('status=in.(Enviado,Pagado)'), row)).toBe(true);
    expect(matchesFilter(parseFilter('status=in.(Enviado)'), row)).toBe(false);
    expect(matchesFilter(parseFilter('created_at=gte.2026-11-22T09:59:59Z'), row)).toBe(true);
    expect(matchesFilter(parseFilter('created_at=lt.2026-11-22T09:59:59Z'), row)).toBe(false);
  });

  it('never matches a column the row lacks or a null value', () => {
    expect(matchesFilter(parseFilter('user_id=eq.abc'), { id: 7 })).toBe(false);
    expect(matchesFilter(parseFilter('note=eq.null'), row)).toBe(false);
    expect(matchesFilter(parseFilter('note=neq.x'), row)).toBe(false);
  });
});

describe('decodeFrame', () => {
  it('reads vsn 2.0.0 arrays and vsn 1.0.0 objects', () => {
    expect(decodeFrame('["1","2","realtime:x","phx_join",{"a":1}]', '2.0.0')).toEqual({
      joinRef: '1',
      ref: '2',
      topic: 'realtime:x',
      event: 'phx_join',
      payload: { a: 1 },
    });
    expect(decodeFrame('{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"3"}', '1.0.0')).toEqual({
      joinRef: null,
      ref: '3',
      topic: 'phoenix',
      event: 'heartbeat',
      payload: {},
    });
  });

  it('returns null for anything that is not a well-formed message', () => {
    const bad = ['', 'nul', '[]', '[1,2,3,4]', '{}', '[null,null,5,"e",{}]', '[{},null,"t","e",{}]', '["1","2","t",7,{}]'];
    for (const text of bad) expect(decodeFrame(text, '2.0.0'), text).toBeNull();
    expect(decodeFrame('["1","2","t","e",{}]', '1.0.0')).toBeNull();
    expect(decodeFrame('{"topic":"t","event":"e"}', '2.0.0')).toBeNull();
  });
});
