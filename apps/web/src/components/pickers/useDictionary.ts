import {
  ADVERTISER_INDUSTRIES,
  DEVICE_SCENES,
  DEVICE_TYPES,
  type DictionaryItem,
  type DictionaryKind,
  OPENOOH_VENUE_TYPES,
  SCREEN_SIZE_PRESETS,
} from '@marquee/protocol';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { callKey } from '../../api/queries';

/** Dictionaries change rarely: a page reads one once and keeps it for a few minutes. */
const STALE_MS = 5 * 60_000;

/**
 * The seeded entries (migrations 0068, 0070 and 0071) with the console's own names: what a picker
 * shows only until the dictionary answers, or if it cannot (the server's list is the one that counts).
 */
const BUILT_IN: Record<DictionaryKind, (t: TFunction) => DictionaryItem[]> = {
  deviceType: (t) => DEVICE_TYPES.map((code) => ({ code, label: t(`devices:type.${code}`), enabled: true })),
  venueType: (t) => OPENOOH_VENUE_TYPES.map((code) => ({ code, label: t(`rtb:venue.${code}`), enabled: true })),
  scene: (t) => DEVICE_SCENES.map((code) => ({ code, label: t(`devices:scene.${code}`), enabled: true })),
  screenSize: (t) =>
    SCREEN_SIZE_PRESETS.map((size) => ({ code: String(size), label: t('devices:inches', { size }), enabled: true })),
  industry: (t) =>
    ADVERTISER_INDUSTRIES.map((code) => ({ code, label: t(`advertisers:industry.${code}`), enabled: true })),
};

export interface Dictionary {
  /** Every entry in order (disabled ones too: they still name the data that holds them). */
  items: DictionaryItem[];
  /** What a picker offers: the enabled entries, plus `keep` (a record's current value) if disabled. */
  options: (keep?: string | null) => { value: string; label: string }[];
  /** The label of a code in the reader's language; '' when the dictionary has none. */
  label: (code: string | null | undefined) => string;
  loading: boolean;
}

/**
 * A dictionary's entries (issue 31, dictionary.list) for pickers and for naming stored codes:
 * one cached read per kind and language, shared by every form and filter that offers the list.
 * The operator's edits invalidate the `dictionaries` domain, so open pickers read the new list.
 */
export function useDictionary(kind: DictionaryKind): Dictionary {
  const { t, i18n } = useTranslation(['devices', 'rtb', 'advertisers']);
  const language = i18n.language;
  const query = useQuery({
    queryKey: [...callKey('dictionaryList', { kind }), language],
    queryFn: ({ signal }) => call('dictionaryList', { kind }, { signal, silent: true }),
    staleTime: STALE_MS,
  });
  const answer = Array.isArray(query.data) ? query.data : undefined;
  return useMemo(() => {
    const list = answer ?? BUILT_IN[kind](t);
    const byCode = new Map(list.map((i) => [i.code, i]));
    return {
      items: list,
      options: (keep) =>
        list
          .filter((i) => i.enabled || (keep != null && i.code === keep))
          .map((i) => ({ value: i.code, label: i.label })),
      label: (code) => (code ? (byCode.get(code)?.label ?? '') : ''),
      loading: query.isLoading,
    };
  }, [answer, kind, t, query.isLoading]);
}
