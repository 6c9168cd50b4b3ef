import { z } from 'zod';
import { collectionEndpoints, endpoint } from './endpoint.ts';
import { NoContent, wireInteger } from './common.ts';

export const DEFAULT_APP_IDS = ['ansible', 'terraform', 'tofu', 'pulumi', 'bash', 'python', 'powershell'] as const;

export const App = z.object({
  id: z.string(),
  active: z.boolean(),
  priority: wireInteger(),
  title: z.string(),
  icon: z.string(),
  color: z.string(),
  dark_color: z.string(),
  path: z.string(),
  args: z.array(z.string()),
});
export type App = z.infer<typeof App>;

export const AppId = z
  .string({ error: 'ID is required' })
  .trim()
  .min(1, 'ID is required')
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'ID may hold only lower-case letters, digits, - and _');

/**
 * A colour as CSS reads one and nothing more: `#rgb` to `#rrggbbaa`, a colour name, or `rgb()`/`hsl()`
 * of numbers. The web app draws it into a style, where `;`, `{` or `url(` would be a rule of their own.
 */
export function isCssColour(text: string): boolean {
  return /^(#[0-9a-f]{3,8}|[a-z]{1,32}|(rgba?|hsla?)\([0-9.,%\s/deg]{1,48}\))$/i.test(text);
}

const colourText = () =>
  z
    .string()
    .trim()
    .max(64)
    .refine((v) => v === '' || isCssColour(v), 'must be a colour: #rrggbb, a colour name, rgb() or hsl()')
    .optional();

export const AppBody = z.object({
  id: AppId.optional(),
  active: z.boolean().optional(),
  priority: wireInteger({
    max: 1_000_000,
    message: {
      type: 'Priority must be a number',
      integer: 'Priority must be an integer',
      min: 'Priority must be 0 or greater',
      max: 'Priority must be at most 1000000',
    },
  }).optional(),
  title: z.string().trim().max(255).optional(),
  icon: z.string().trim().max(255).optional(),
  color: colourText(),
  dark_color: colourText(),
  path: z.string().trim().max(1024).optional(),
  args: z.array(z.string().max(1024)).max(100).nullable().optional(),
});
export type AppBody = z.input<typeof AppBody>;

const AppParams = z.object({ appId: AppId });

export const appsApi = {
  ...collectionEndpoints({
    path: '/api/apps',
    itemPath: '/api/apps/:appId',
    itemParams: AppParams,
    body: AppBody.extend({ id: AppId }),
    item: App,
    updateBody: AppBody,
  }),
  setActive: endpoint({
    method: 'POST',
    path: '/api/apps/:appId/active',
    params: AppParams,
    body: z.object({ active: z.boolean({ error: 'active must be true or false' }) }),
    response: NoContent,
    status: 204,
  }),
};
