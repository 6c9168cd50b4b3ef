/** Browser-local preferences. Storage can be unavailable (private mode, quotas); reads then fall back to defaults. */
const PREFIX = 'gantry.';

function readItem(key: string): string | null {
  try {
    return window.localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function writeItem(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(PREFIX + key);
    else window.localStorage.setItem(PREFIX + key, value);
  } catch {
    // A preference that cannot be saved is only lost on reload.
  }
}

/** An address inside the app: a path of this origin, never another site's (`//host`). */
const isAppPath = (value: string) => value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');

export const storage = {
  /**
   * Where a signed-out visitor was going (a link in an alert, a bookmark): the base page, where every
   * sign-in ends, leads there. Kept for this tab only, so it survives the single sign-on round trip.
   */
  getReturnPath: (): string | null => {
    try {
      const value = window.sessionStorage.getItem(`${PREFIX}return_path`);
      return value !== null && isAppPath(value) ? value : null;
    } catch {
      return null;
    }
  },
  setReturnPath: (path: string | null): void => {
    try {
      if (path === null) window.sessionStorage.removeItem(`${PREFIX}return_path`);
      else window.sessionStorage.setItem(`${PREFIX}return_path`, path);
    } catch {
      // Without storage the visitor lands on the base page after sign-in.
    }
  },

  getLanguage: (): string | null => readItem('language'),
  setLanguage: (language: string | null): void => writeItem('language', language),

  getDarkMode: (): boolean | null => {
    const value = readItem('dark_mode');
    return value === null ? null : value === 'true';
  },
  setDarkMode: (dark: boolean): void => writeItem('dark_mode', String(dark)),

  getLastProjectId: (): number | null => {
    const value = Number(readItem('last_project_id'));
    return Number.isInteger(value) && value > 0 ? value : null;
  },
  setLastProjectId: (projectId: number | null): void =>
    writeItem('last_project_id', projectId === null ? null : String(projectId)),

  /** The template view last opened in a project; null for "All". */
  getLastViewId: (projectId: number): number | null => {
    const value = Number(readItem(`project${projectId}.last_view_id`));
    return Number.isInteger(value) && value > 0 ? value : null;
  },
  setLastViewId: (projectId: number, viewId: number | null): void =>
    writeItem(`project${projectId}.last_view_id`, viewId === null ? null : String(viewId)),

  /** Columns the user hid in a table, by table name (e.g. project__template). */
  getHiddenColumns: (table: string): string[] => {
    try {
      const value: unknown = JSON.parse(readItem(`${table}.hidden_columns`) ?? '[]');
      return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    } catch {
      return [];
    }
  },
  setHiddenColumns: (table: string, columns: readonly string[]): void =>
    writeItem(`${table}.hidden_columns`, columns.length ? JSON.stringify(columns) : null),

  /** Whether an expandable dialog (named by the caller, e.g. "task_log") was last left fullscreen. */
  getDialogFullscreen: (dialog: string): boolean => readItem(`fullscreen.${dialog}`) === 'true',
  setDialogFullscreen: (dialog: string, fullscreen: boolean): void =>
    writeItem(`fullscreen.${dialog}`, String(fullscreen)),
};
