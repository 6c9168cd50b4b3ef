import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { TeamMember } from '@gantry/contract';
import { renderWithProviders } from '../../testing/render.tsx';
import { ApprovalRuleFields } from './approval-rule-fields.tsx';
import { DEFAULT_APPROVAL_RULE } from './approval-rule.ts';

const member = (user_id: number, name: string, role: TeamMember['role']): TeamMember => ({
  id: user_id,
  user_id,
  username: name.toLowerCase(),
  name,
  email: `${name.toLowerCase()}@example.com`,
  role,
});

describe('approval rule fields', () => {
  it('offers no guest as an approver, by name or by role: guests never decide', async () => {
    renderWithProviders(
      <ApprovalRuleFields
        value={DEFAULT_APPROVAL_RULE}
        onChange={() => {}}
        members={[member(1, 'Ann', 'manager'), member(2, 'Gus', 'guest')]}
        starterMayApproveLabel="The starter may approve"
      />,
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Approvers' }));
    const users = within(await screen.findByRole('listbox'));
    expect(users.getByRole('option', { name: 'Ann' })).toBeTruthy();
    expect(users.queryByRole('option', { name: 'Gus' })).toBeNull();
  });
});
