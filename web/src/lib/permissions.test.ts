import { describe, expect, it } from 'vitest';

import { may } from './permissions.ts';

describe('permissions', () => {
  it('gives each role its actions, and an unknown role none', () => {
    expect([may('admin', 'changeDevices'), may('admin', 'manageUsers')]).toEqual([true, true]);
    expect([may('operator', 'changeDevices'), may('operator', 'manageUsers')]).toEqual([true, false]);
    expect([may('viewer', 'changeDevices'), may('viewer', 'manageUsers')]).toEqual([false, false]);
    expect(['admin', 'operator', 'viewer'].map((role) => may(role, 'readAudit'))).toEqual([true, false, false]);
    expect(['admin', 'operator', 'viewer'].map((role) => may(role, 'manageApiKeys'))).toEqual([true, false, false]);
    expect(['admin', 'operator', 'viewer'].map((role) => may(role, 'manageAlarmRules'))).toEqual([true, false, false]);
    for (const role of [null, '', 'root', 'constructor', 'toString']) {
      expect(may(role, 'changeDevices')).toBe(false);
    }
  });
});
