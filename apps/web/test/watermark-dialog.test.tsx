import { Perm } from '@marquee/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import { WatermarkDialog } from '../src/features/watermark/WatermarkDialog';
import { i18n } from '../src/i18n';
import { fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/**
 * The watermark dialog (issue 31): a device's current setting read (following its group), a
 * text watermark typed with its live preview, the text required, and the setting sent as the
 * manifest will carry it; a group has no "follow" choice.
 */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const groupMark = {
  enabled: true,
  watermark: { kind: 'text', text: 'Mall', materialId: null, position: 'bottomRight', opacity: 40, sizePct: 6 },
  materialName: null,
  materialUrl: null,
};

describe('WatermarkDialog', () => {
  it('shows that a device follows its group, then sends a text watermark of its own', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      deviceWatermarkInfo: () => ({
        code: 0,
        payload: { own: null, group: groupMark, groupName: 'Mall screens', effective: groupMark },
      }),
      deviceWatermarkSave: () => ({ code: 0, payload: { changed: 1 } }),
    });
    const onClose = vi.fn();
    renderPages(
      '/device/remote',
      {
        '/device/remote': (
          <WatermarkDialog target={{ kind: 'devices', ids: ['d-1'], label: 'Door' }} onClose={onClose} />
        ),
      },
      [Perm.deviceRemote],
    );
    const form = await screen.findByTestId('watermark-form');
    expect((await screen.findByTestId('watermark-group-note')).textContent).toContain('Mall screens');
    const mode = within(form).getByTestId('watermark-mode');
    await waitFor(() => expect(within(mode).getByLabelText('Follow its group')).toHaveProperty('checked', true));

    fireEvent.click(within(mode).getByLabelText('Show a watermark'));
    const text = await within(form).findByTestId('watermark-text');
    // The text is required.
    fireEvent.click(screen.getByTestId('watermark-submit'));
    expect(await within(form).findByText('This field is required')).toBeTruthy();
    // With a counter, antd puts the test id on the input's wrapper.
    const input = text.tagName === 'INPUT' ? text : (text.querySelector('input') as HTMLElement);
    fireEvent.change(input, { target: { value: 'Lobby © 2026' } });
    fireEvent.click(within(within(form).getByTestId('watermark-position')).getByLabelText('Top left'));
    await waitFor(() => expect(screen.getByTestId('watermark-preview').textContent).toContain('Lobby © 2026'));
    fireEvent.click(screen.getByTestId('watermark-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'deviceWatermarkSave')).toBe(true));
    expect(calls.find((c) => c.name === 'deviceWatermarkSave')?.data).toEqual({
      ids: ['d-1'],
      setting: {
        enabled: true,
        watermark: {
          kind: 'text',
          text: 'Lobby © 2026',
          materialId: null,
          position: 'topLeft',
          opacity: 40,
          sizePct: 6,
        },
      },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('offers a group none or a watermark, not "follow"', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      deviceGroupWatermarkInfo: () => ({ code: 0, payload: { own: null } }),
      deviceGroupWatermarkSave: () => ({ code: 0, payload: { changed: 3 } }),
    });
    renderPages(
      '/device/group',
      { '/device/group': <WatermarkDialog target={{ kind: 'group', id: 'g-1', label: 'Mall' }} onClose={() => {}} /> },
      [Perm.deviceRemote],
    );
    const mode = await screen.findByTestId('watermark-mode');
    expect(within(mode).queryByLabelText('Follow its group')).toBeNull();
    await waitFor(() => expect(within(mode).getByLabelText('None')).toHaveProperty('checked', true));
    fireEvent.click(screen.getByTestId('watermark-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'deviceGroupWatermarkSave')).toBe(true));
    expect(calls.find((c) => c.name === 'deviceGroupWatermarkSave')?.data).toEqual({
      groupId: 'g-1',
      setting: { enabled: false },
    });
  });
});
