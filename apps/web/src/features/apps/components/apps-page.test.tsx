import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { makeCurrentUser } from '../../../testing/user-fixtures.ts';
import { AppsPage } from './apps-page.tsx';

const app = (id: string, title: string) => ({
  id,
  active: true,
  priority: 0,
  title,
  icon: '',
  color: '',
  dark_color: '',
  path: '',
  args: [],
});

describe('AppsPage', () => {
  it('lets an admin edit every app but delete only the ones added to the defaults', async () => {
    stubFetch({
      'GET /api/user': () => json(200, makeCurrentUser()),
      'GET /api/apps': () => json(200, [app('ansible', 'Ansible'), app('ruby', 'Ruby')]),
    });
    renderWithProviders(<AppsPage />);
    expect(await screen.findByRole('button', { name: 'Delete Ruby' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit Ruby' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit Ansible' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Ansible' })).toBeNull();
  });
});
