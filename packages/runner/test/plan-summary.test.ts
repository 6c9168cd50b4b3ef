import { PLAN_LIMITS } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { summarizePlan } from '../src/plan-summary.ts';

const change = (address: unknown, actions: unknown) => ({ address, change: { actions } });

describe('summarizePlan', () => {
  it("counts as terraform's Plan line does and lists the resources that change, in order", () => {
    const plan = {
      resource_changes: [
        change('a.create', ['create']),
        change('a.update', ['update']),
        change('a.replace', ['delete', 'create']),
        change('a.replace_first', ['create', 'delete']),
        change('a.delete', ['delete']),
        change('data.a.read', ['read']),
        change('a.same', ['no-op']),
        change('a.forget', ['forget']),
        change(42, ['create']),
        change('a.odd', 'create'),
        null,
      ],
    };
    expect(summarizePlan(JSON.stringify(plan))).toEqual({
      recap: { add: 3, change: 1, destroy: 3 },
      resources: [
        { address: 'a.create', action: 'create' },
        { address: 'a.update', action: 'update' },
        { address: 'a.replace', action: 'replace' },
        { address: 'a.replace_first', action: 'replace' },
        { address: 'a.delete', action: 'delete' },
      ],
      truncated: false,
    });
  });

  it('keeps every count but lists at most the limit of resources, each address bounded', () => {
    const many = Array.from({ length: PLAN_LIMITS.maxResources + 5 }, (_, i) =>
      change(`r.${i}${'x'.repeat(i === 0 ? 2 * PLAN_LIMITS.addressLength : 0)}`, ['update']),
    );
    const summary = summarizePlan(JSON.stringify({ resource_changes: many }));
    expect(summary?.recap).toEqual({ add: 0, change: PLAN_LIMITS.maxResources + 5, destroy: 0 });
    expect(summary?.resources).toHaveLength(PLAN_LIMITS.maxResources);
    expect(summary?.resources[0]?.address).toHaveLength(PLAN_LIMITS.addressLength);
    expect(summary?.truncated).toBe(true);
  });

  it('takes a plan without changes, and refuses text that is not a plan', () => {
    expect(summarizePlan('{"format_version":"1.2"}')).toEqual({
      recap: { add: 0, change: 0, destroy: 0 },
      resources: [],
      truncated: false,
    });
    for (const text of ['', 'terraform show', '[]', 'null', '{"resource_changes":{}}', '{"resource_changes":'])
      expect(summarizePlan(text)).toBeUndefined();
  });
});
