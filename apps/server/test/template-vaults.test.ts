import { beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

interface Vault {
  id: number;
  name: string;
  type: string;
  vault_key_id: number | null;
  script: string;
}

describe.each(dialects)('template vaults on %s', (dialect) => {
  const t = useTestApp(dialect);
  let p: ProjectFixture;
  let other: ProjectFixture;
  let keyId: number;

  beforeAll(async () => {
    p = await createProjectFixture(t, { 'run.sh': 'true\n' });
    other = await createProjectFixture(t, { 'run.sh': 'true\n' });
    t.secrets.add('vault-Pass-1');
    keyId = await p.createLoginPasswordKey('vault', '', 'vault-Pass-1');
  });

  const password = (name: string, id?: number) => ({ id, name, type: 'password', vault_key_id: keyId });
  const script = (name: string, id?: number) => ({ id, name, type: 'script', script: `vault/${name}-client.sh` });

  async function vaultsOf(f: ProjectFixture, templateId: number): Promise<Vault[]> {
    const template = await t.request('GET', `${f.base}/templates/${templateId}`, { as: t.adminCookie });
    return (template.body as { vaults: Vault[] }).vaults;
  }

  async function putVaults(templateId: number, vaults: unknown[]): Promise<void> {
    const response = await t.request('PUT', `${p.base}/templates/${templateId}`, {
      as: t.adminCookie,
      body: p.templateBody({ id: templateId, name: `Vaults ${templateId}`, playbook: 'run.sh', vaults }),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(204);
  }

  it('an update keeps the ids of the vaults it sends with their ids, changes them in place, adds new ones and drops the rest', async () => {
    const templateId = await p.createTemplate({ playbook: 'run.sh', vaults: [password('one'), script('two')] });
    const [one, two] = await vaultsOf(p, templateId);
    if (!one || !two) throw new Error('the template has its two vaults');

    await putVaults(templateId, [password('first', one.id), script('second', two.id), password('new')]);
    const updated = await vaultsOf(p, templateId);
    expect(updated).toEqual([
      { id: one.id, name: 'first', type: 'password', vault_key_id: keyId, script: '' },
      { id: two.id, name: 'second', type: 'script', vault_key_id: null, script: 'vault/second-client.sh' },
      { id: expect.any(Number), name: 'new', type: 'password', vault_key_id: keyId, script: '' },
    ]);
    const added = updated[2]?.id ?? 0;
    expect(added).toBeGreaterThan(two.id);

    // A vault may change its type in place; a vault left out of the list goes.
    await putVaults(templateId, [script('first', one.id), password('new', added)]);
    expect(await vaultsOf(p, templateId)).toEqual([
      { id: one.id, name: 'first', type: 'script', vault_key_id: null, script: 'vault/first-client.sh' },
      { id: added, name: 'new', type: 'password', vault_key_id: keyId, script: '' },
    ]);

    await putVaults(templateId, []);
    expect(await vaultsOf(p, templateId)).toEqual([]);
  });

  it("an id of another template's or project's vault, or one sent twice, adds a vault and leaves the other as it was", async () => {
    const templateId = await p.createTemplate({ playbook: 'run.sh', vaults: [password('mine')] });
    const neighbourId = await p.createTemplate({ playbook: 'run.sh', vaults: [password('neighbour')] });
    const strangerKey = await other.createLoginPasswordKey('stranger', '', 'vault-Pass-1');
    const strangerId = await other.createTemplate({
      playbook: 'run.sh',
      vaults: [{ name: 'stranger', type: 'password', vault_key_id: strangerKey }],
    });
    const [mine] = await vaultsOf(p, templateId);
    const neighbour = await vaultsOf(p, neighbourId);
    const stranger = await vaultsOf(other, strangerId);
    if (!mine || !neighbour[0] || !stranger[0]) throw new Error('each template has its vault');

    await putVaults(templateId, [
      password('mine', mine.id),
      password('taken', neighbour[0].id),
      script('foreign', stranger[0].id),
      password('twice', mine.id),
    ]);
    const saved = await vaultsOf(p, templateId);
    expect(saved.map((v) => v.name)).toEqual(['mine', 'taken', 'foreign', 'twice']);
    expect(saved[0]?.id).toBe(mine.id);
    const otherIds = [neighbour[0].id, stranger[0].id];
    expect(saved.slice(1).every((v) => v.id > mine.id && !otherIds.includes(v.id))).toBe(true);
    expect(await vaultsOf(p, neighbourId)).toEqual(neighbour);
    expect(await vaultsOf(other, strangerId)).toEqual(stranger);
  });

  it('refuses a vault id that is no id with a 400, changing nothing', async () => {
    const templateId = await p.createTemplate({ playbook: 'run.sh', vaults: [password('kept')] });
    const before = await vaultsOf(p, templateId);
    for (const id of ['1', -1, 1.5, 2 ** 31]) {
      const response = await t.request('PUT', `${p.base}/templates/${templateId}`, {
        as: t.adminCookie,
        body: p.templateBody({ id: templateId, playbook: 'run.sh', vaults: [password('kept', id as number)] }),
      });
      expect(response.status, String(id)).toBe(400);
      expect(response.body, String(id)).toMatchObject({ error: expect.any(String) });
    }
    expect(await vaultsOf(p, templateId)).toEqual(before);
  });
});
