import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';

describe('workflow step outputs in the browser', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;
  let templateIds: Record<'Publish' | 'Ship', number>;

  beforeAll(async () => {
    ({ page, projectId, templateIds } = await gantry.projectPage(
      'Outputs',
      {
        'publish.sh':
          'echo "version=2.0.1" >> "$GANTRY_OUTPUTS"\necho \'{"notes": "first line\\nsecond line"}\' >> "$GANTRY_OUTPUTS"\n',
        'ship.sh': 'echo "shipping $*"\n',
      },
      {
        Publish: { app: 'bash', playbook: 'publish.sh' },
        Ship: { app: 'bash', playbook: 'ship.sh', survey_vars: [{ name: 'version', title: 'Version' }] },
      },
    ));
  });

  it("lists each step's outputs on the run page, and the next step gets them", async () => {
    const workflow = await gantry.api<{ id: number }>('POST', `/api/project/${projectId}/workflows`, {
      name: 'Publish and ship',
      steps: [
        { key: 'publish', kind: 'template', template_id: templateIds.Publish, outputs: ['version', 'notes'] },
        {
          key: 'ship',
          kind: 'template',
          template_id: templateIds.Ship,
          inputs: [{ variable: 'version', source: 'output', step: 'publish', output: 'version' }],
        },
      ],
      edges: [{ from: 'publish', to: 'ship', on: 'success' }],
    });
    const run = await gantry.api<{ id: number }>('POST', `/api/project/${projectId}/workflows/${workflow.id}/runs`, {});
    await page.goto(`/project/${projectId}/workflows/${workflow.id}/runs/${run.id}`);
    await page.getByRole('group', { name: 'Step ship: Success' }).waitFor({ timeout: 30_000 });
    const outputs = page.getByRole('region', { name: 'Outputs of publish' });
    await outputs.getByRole('row', { name: 'version 2.0.1' }).waitFor();
    await outputs.getByRole('row', { name: /notes first line\s+second line/ }).waitFor();
    // Only steps that published something are listed.
    await page.getByRole('region', { name: 'Outputs of ship' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Log of step ship' }).click();
    await page.getByRole('dialog').getByText('shipping version=2.0.1').first().waitFor();
  });
});
