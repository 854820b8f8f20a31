import { LockOutlined } from '@ant-design/icons';
import type { DeptTreeNode } from '@marquee/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ButtonProps } from 'antd';
import { Alert, App, Card, Col, Empty, Modal, Radio, Row, Select, Spin, Tag, Tooltip, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import './permission-dialog.css';
import {
  checkDept,
  checkedDeptIds,
  type DialogState,
  EMPTY_STATE,
  type Entry,
  lockedDeptIds,
  ownDept,
  removeTag,
  selectedAccountIds,
  setAccounts,
  setDeptType,
  splitAllocations,
  type TreeFacts,
  tags,
  toRefreshEntries,
  uncheckDept,
} from './rules';

export interface PermissionDialogProps {
  open: boolean;
  /** The ref-type of the objects (packages/protocol/src/refTypes.ts), e.g. '9' for templates. */
  refType: string;
  /** The objects to share; with one, its current allocations are loaded and edited. */
  refIds: readonly string[];
  /** Their names, in the order of `refIds`, for the title: the dialog says what it shares. */
  names: readonly string[];
  onClose: () => void;
  /** After a successful save (the page clears its table selection and refreshes its list). */
  onDone?: () => void;
}

/** Query keys of the dialog's three lists; refetched every time the dialog opens. */
export const permissionKeys = {
  subAccounts: ['permission', 'subAccounts'] as const,
  deptTree: ['permission', 'deptTree'] as const,
  allocation: (refType: string, refId: string) => ['permission', 'allocation', refType, refId] as const,
};

/** Up to three names, then "and others": the objects a batch dialog shares. */
function nameList(names: readonly string[], t: TFunction): string {
  const shown = names.slice(0, 3).join(t('nameSeparator', { ns: 'sharing' }));
  return names.length > 3 ? t('moreNames', { ns: 'sharing', names: shown }) : shown;
}

/**
 * The shared permission dialog (spec section 4, section 9 width 60 % and at least 1000 px).
 * Generic over ref-types: any page that shares objects opens it with its ref-type and ids.
 * The rules live in ./rules.ts; this component only renders them.
 */
export function PermissionDialog({ open, refType, refIds, names, onClose, onDone }: PermissionDialogProps) {
  const { t } = useTranslation('sharing');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const single = refIds.length === 1 ? refIds[0] : null;
  const [state, setState] = useState<DialogState>(EMPTY_STATE);
  const [ready, setReady] = useState(false);

  const accountsQuery = useQuery({
    queryKey: permissionKeys.subAccounts,
    queryFn: () => call('permissionSubAccounts', {}),
    enabled: open,
    staleTime: 0,
  });
  const treeQuery = useQuery({
    queryKey: permissionKeys.deptTree,
    queryFn: () => call('permissionDeptTree', {}),
    enabled: open,
    staleTime: 0,
  });
  const allocationQuery = useQuery({
    queryKey: permissionKeys.allocation(refType, single ?? ''),
    queryFn: () => call('permissionAllocation', { refType, refId: single ?? '' }),
    enabled: open && single !== null,
    staleTime: 0,
    gcTime: 0,
  });

  // Spec section 4: on open, the allocations are sorted into inherited (locked) and own.
  useEffect(() => {
    if (!open) {
      setState(EMPTY_STATE);
      setReady(false);
      return;
    }
    if (single === null) {
      setState(EMPTY_STATE);
      setReady(true);
    } else if (allocationQuery.data && !allocationQuery.isFetching) {
      setState(splitAllocations(allocationQuery.data.allocateInfos));
      setReady(true);
    }
  }, [open, single, allocationQuery.data, allocationQuery.isFetching]);

  const facts: TreeFacts = useMemo(() => {
    const deptNames = new Map<string, string>();
    const walk = (nodes: readonly DeptTreeNode[]) => {
      for (const n of nodes) {
        deptNames.set(n.id, n.name);
        walk(n.children);
      }
    };
    walk(treeQuery.data?.trees ?? []);
    return { deptChildMap: treeQuery.data?.deptChildMap ?? {}, deptNames };
  }, [treeQuery.data]);

  const save = useMutation({
    mutationFn: () =>
      call('permissionRefresh', { refType, refIds: [...refIds], allocateInfos: toRefreshEntries(state) }),
    onSuccess: () => {
      message.success(t('saved'));
      for (const id of refIds) queryClient.removeQueries({ queryKey: permissionKeys.allocation(refType, id) });
      setState(EMPTY_STATE);
      onClose();
      onDone?.();
    },
  });

  const loading = !ready || accountsQuery.isLoading || treeQuery.isLoading;
  const locked = lockedDeptIds(state);
  const checked = checkedDeptIds(state);

  const toggle = (id: string, on: boolean) => {
    if (locked.has(id)) return;
    setState((s) => (on ? checkDept(s, id, facts) : uncheckDept(s, id, facts)));
  };

  const treeData = useMemo(() => {
    const build = (nodes: readonly DeptTreeNode[]): DataNode[] =>
      nodes.map((n) => ({
        key: n.id,
        title: n.name,
        disabled: n.disabled,
        disableCheckbox: locked.has(n.id),
        children: build(n.children),
      }));
    return build(treeQuery.data?.trees ?? []);
  }, [treeQuery.data, locked]);

  const renderTitle = (node: DataNode) => {
    const id = String(node.key);
    const name = String(node.title);
    const own = ownDept(state, id);
    const isLocked = locked.has(id);
    return (
      <span className="mq-perm-node">
        <span
          className={isLocked ? 'mq-perm-node-name mq-perm-node-locked' : 'mq-perm-node-name'}
          data-testid={`perm-dept-${name}`}
          data-checked={checked.includes(id) ? 'true' : 'false'}
          data-locked={isLocked ? 'true' : 'false'}
          onClick={() => toggle(id, !checked.includes(id))}
        >
          {name}
          {isLocked ? (
            <Tooltip title={t('inheritedHint')}>
              <Typography.Text type="secondary" className="mq-perm-inherited">
                <LockOutlined /> {t('inheritedSuffix').trim()}
              </Typography.Text>
            </Tooltip>
          ) : null}
        </span>
        {own ? (
          <span onClick={(e) => e.stopPropagation()} className="mq-perm-node-type">
            <Radio.Group
              size="small"
              optionType="button"
              value={own.deptDataType}
              aria-label={t('deptType.label', { name })}
              data-testid={`perm-dept-type-${name}`}
              onChange={(e) => setState((s) => setDeptType(s, id, e.target.value as 1 | 2, facts))}
              options={[
                { value: 1, label: t('deptType.withChildren') },
                { value: 2, label: t('deptType.only') },
              ]}
            />
          </span>
        ) : null}
      </span>
    );
  };

  const accountOptions = (accountsQuery.data ?? []).map((a) => ({ value: a.id, label: a.name }));
  const accountName = new Map(accountOptions.map((o) => [o.value, o.label]));

  const tagLabel = (e: Entry) => (e.locked ? `${e.name}${t('inheritedSuffix')}` : e.name);
  const allTags = tags(state);

  return (
    <Modal
      open={open}
      title={
        single
          ? t('title', { name: names[0] ?? '' })
          : t('titleBatch', { count: refIds.length, names: nameList(names, t) })
      }
      width="60%"
      style={{ minWidth: 1000 }}
      destroyOnHidden
      mask={{ closable: !save.isPending }}
      onCancel={() => {
        if (!save.isPending) onClose();
      }}
      okText={t('submit')}
      onOk={() => save.mutate()}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: loading, 'data-testid': 'permission-submit' } as ButtonProps}
      cancelButtonProps={{ disabled: save.isPending }}
      wrapProps={{ 'data-testid': 'permission-dialog' }}
    >
      <Spin spinning={loading}>
        {refIds.length > 1 ? (
          <Alert type="info" showIcon className="mq-perm-hint" title={t('batchHint', { count: refIds.length })} />
        ) : null}
        <Row gutter={16}>
          <Col span={13}>
            <Card size="small" title={t('departments')} className="mq-perm-card">
              {treeData.length > 0 ? (
                <Tree
                  checkable
                  checkStrictly
                  selectable={false}
                  defaultExpandAll
                  blockNode
                  treeData={treeData}
                  checkedKeys={{ checked, halfChecked: [] }}
                  titleRender={renderTitle}
                  onCheck={(_keys, info) => toggle(String(info.node.key), info.checked)}
                  height={420}
                />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty.departments')} />
              )}
            </Card>
          </Col>
          <Col span={11}>
            <Card size="small" title={t('accounts')} className="mq-perm-card">
              <Select
                mode="multiple"
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={{ width: '100%' }}
                placeholder={t('accounts.placeholder')}
                options={accountOptions}
                value={selectedAccountIds(state)}
                onChange={(ids: string[]) =>
                  setState((s) =>
                    setAccounts(
                      s,
                      ids.map((id) => ({ id, name: accountName.get(id) ?? id })),
                    ),
                  )
                }
                data-testid="perm-accounts"
                maxTagCount="responsive"
              />
            </Card>
            <Card size="small" title={t('selected')} className="mq-perm-card mq-perm-tags">
              {allTags.length === 0 ? (
                <Typography.Text type="secondary">{t('selected.none')}</Typography.Text>
              ) : (
                allTags.map((e) => (
                  <Tag
                    key={`${e.allocateType}:${e.id}`}
                    color={e.locked ? 'default' : e.allocateType === 1 ? 'blue' : 'green'}
                    icon={e.locked ? <LockOutlined /> : undefined}
                    closable={!e.locked}
                    onClose={(event) => {
                      event.preventDefault();
                      setState((s) => removeTag(s, e, facts));
                    }}
                    data-testid={`perm-tag-${e.name}`}
                    data-locked={e.locked ? 'true' : 'false'}
                    title={e.allocateType === 1 ? t('tag.department') : t('tag.account')}
                  >
                    {tagLabel(e)}
                    {e.allocateType === 1 && !e.locked ? (
                      <span className="mq-perm-tag-type">
                        {' · '}
                        {e.deptDataType === 1 ? t('deptType.withChildren') : t('deptType.only')}
                      </span>
                    ) : null}
                  </Tag>
                ))
              )}
            </Card>
          </Col>
        </Row>
      </Spin>
    </Modal>
  );
}

export default PermissionDialog;
