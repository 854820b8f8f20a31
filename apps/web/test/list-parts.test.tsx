import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App, Form, Input } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FilterBar } from '../src/components/FilterBar';
import { FormDialog } from '../src/components/FormDialog';
import { type ListQuery, ListTable } from '../src/components/ListTable';
import { useUrlListState } from '../src/components/listState';
import { installDomShims } from './harness';

vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => {
  configure({ asyncUtilTimeout: 8000 });
  installDomShims();
});

afterEach(() => cleanup());

const KEYS = ['name', 'status'] as const;
interface Row {
  id: string;
  name: string;
}

/** One list page of the shapes the console's pages use, at `initial` in a memory router. */
function renderList(initial: string, query: ListQuery<Row>) {
  function Page() {
    const listState = useUrlListState(KEYS, { defaultSize: 20 });
    return (
      <>
        <FilterBar
          values={listState.filters}
          onSearch={listState.applyFilters}
          onReset={listState.clearFilters}
          testIds={{ search: 'search', reset: 'reset' }}
        >
          <Form.Item name="name" label="Name">
            <Input data-testid="filter-name" />
          </Form.Item>
        </FilterBar>
        <ListTable<Row>
          query={query}
          state={listState}
          config={{ id: 'parts', columns: [{ prop: 'name', label: 'Name' }] }}
          rowTestId={(row) => `row-${row.name}`}
          empty="Nothing here"
          failed={{ description: 'Could not load', retryLabel: 'Retry' }}
          showTotal={(total) => `${total} in total`}
        />
      </>
    );
  }
  const router = createMemoryRouter([{ path: '/list', element: <Page /> }], { initialEntries: [initial] });
  render(
    <App>
      <RouterProvider router={router} />
    </App>,
  );
  return router;
}

const idle = { isFetching: false, isError: false, refetch: () => undefined };

describe('filter bar and URL list state (guide convention 7)', () => {
  it('shows the URL filters, searches trimmed from page 1 and resets', async () => {
    const router = renderList('/list?name=abc&page=3&size=10', idle);
    const field = screen.getByTestId('filter-name') as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('abc'));

    fireEvent.change(field, { target: { value: '  xyz ' } });
    fireEvent.click(screen.getByTestId('search'));
    await waitFor(() => expect(router.state.location.search).toBe('?name=xyz&size=10'));

    // A link (or Back) to other filters shows them in the fields.
    await act(() => router.navigate('/list?name=other'));
    await waitFor(() => expect(field.value).toBe('other'));

    fireEvent.click(screen.getByTestId('reset'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    // Resetting remounts the fields (antd), so look the input up again.
    expect((screen.getByTestId('filter-name') as HTMLInputElement).value).toBe('');
  });
});

describe('list table', () => {
  it('shows the rows with their test ids, the total, and pages through the URL', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ id: String(i), name: `n${i}` }));
    const router = renderList('/list', { ...idle, data: { data: rows, total: 45 } });
    expect(screen.getByTestId('row-n0')).toBeTruthy();
    expect(screen.getByText('45 in total')).toBeTruthy();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
  });

  it('offers a retry when loading failed, and the empty text otherwise', () => {
    const refetch = vi.fn();
    renderList('/list', { ...idle, isError: true, refetch });
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.getByText('Could not load')).toBeTruthy();
    expect(refetch).toHaveBeenCalledOnce();
    cleanup();
    renderList('/list', { ...idle, data: { data: [], total: 0 } });
    expect(screen.getByText('Nothing here')).toBeTruthy();
  });
});

describe('form dialog (guide convention 8)', () => {
  function renderDialog(props: { submit: (v: { name: string }) => Promise<unknown>; onClose: () => void }) {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    render(
      <QueryClientProvider client={queryClient}>
        <App>
          <FormDialog<{ name: string }>
            open
            title="Edit"
            onClose={props.onClose}
            submit={props.submit}
            success="Saved"
            invalidate={['things']}
            values={{ name: 'first' }}
            okText="Save"
            cancelText="Cancel"
            submitTestId="dialog-submit"
            testId="dialog-form"
          >
            <Form.Item name="name" rules={[{ required: true, message: 'Required' }]}>
              <Input data-testid="dialog-name" />
            </Form.Item>
          </FormDialog>
        </App>
      </QueryClientProvider>,
    );
    return { invalidate };
  }

  it('opens with the values, keeps them after a failure, closes with a toast after success', async () => {
    let fail = true;
    const submit = vi.fn(async () => {
      if (fail) throw new Error('refused');
    });
    const onClose = vi.fn();
    const { invalidate } = renderDialog({ submit, onClose });
    const name = (await screen.findByTestId('dialog-name')) as HTMLInputElement;
    expect(name.value).toBe('first');

    fireEvent.change(name, { target: { value: 'second' } });
    fireEvent.click(screen.getByTestId('dialog-submit'));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(name.disabled).toBe(false));
    expect(name.value).toBe('second');
    expect(onClose).not.toHaveBeenCalled();

    fail = false;
    fireEvent.click(screen.getByTestId('dialog-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(submit).toHaveBeenLastCalledWith({ name: 'second' }, expect.anything());
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['things'] });
    await screen.findByText('Saved');
  });

  it('does not send an invalid form', async () => {
    const submit = vi.fn(async () => undefined);
    renderDialog({ submit, onClose: () => undefined });
    const name = await screen.findByTestId('dialog-name');
    fireEvent.change(name, { target: { value: '' } });
    fireEvent.click(screen.getByTestId('dialog-submit'));
    await screen.findByText('Required');
    expect(submit).not.toHaveBeenCalled();
  });
});
