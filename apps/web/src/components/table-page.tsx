import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from './data-table.tsx';
import type { TableContentProps } from './data-table.tsx';
import { Page } from './page.tsx';
import { PageHeader } from './page-header.tsx';

type TablePageProps<T> = TableContentProps<T> & {
  /** The translation section of the page's title (`<section>.title`, the table's name too) and of the table's `empty` text. */
  section: string;
  /** Where the header's back arrow leads; none without it. */
  backTo?: string;
  /** The header's controls (a new button). */
  actions?: ReactNode;
  /** The page's dialogs. */
  children?: ReactNode;
};

/** A screen that is one table: its title in the header, the table named after it, then the page's dialogs. */
export function TablePage<T>({ section, backTo, actions, children, ...table }: TablePageProps<T>) {
  const { t } = useTranslation();
  const title = t(`${section}.title`);
  return (
    <Page>
      <PageHeader title={title} backTo={backTo} actions={actions} />
      <DataTable<T> {...table} aria-label={title} emptyText={t(`${section}.empty`)} />
      {children}
    </Page>
  );
}
