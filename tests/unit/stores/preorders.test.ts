import { describe, expect, it } from 'vitest';
import { $preorderWaitlist, waitlistSignature } from '~/stores/preorders.ts';

describe('the waitlist choice', () => {
  it('starts unchosen and changes the order signature only when chosen', () => {
    expect($preorderWaitlist.get()).toBe(false);
    expect(waitlistSignature(false)).toBe('');
    expect(waitlistSignature(true)).not.toBe('');
  });
});
