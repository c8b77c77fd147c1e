import { describe, expect, it } from 'vitest';
import { msgLook, termColor } from './look';

describe('msgLook', () => {
  it('groups Raft message types into families, responses hollow and marked', () => {
    expect(msgLook('MsgApp')).toEqual({ family: 'app', response: false, short: 'App' });
    expect(msgLook('MsgAppResp')).toEqual({ family: 'app', response: true, short: 'App↩' });
    expect(msgLook('MsgPreVoteResp').family).toBe('prevote');
    expect(msgLook('MsgHeartbeat').short).toBe('HB');
    expect(msgLook('MsgSnap').family).toBe('snap');
    expect(msgLook('RaftSnapshotResponse')).toMatchObject({ family: 'snap', response: true });
    expect(msgLook('PutRequest')).toEqual({ family: 'client', response: false, short: 'Put' });
    expect(msgLook('MsgReadIndex').family).toBe('other');
  });
  it('cycles term colours', () => {
    expect(termColor(1)).toEqual(termColor(11));
    expect(termColor(1)).not.toEqual(termColor(2));
  });
});
