import { DEVICE_API_PREFIX } from '@marquee/protocol';
import { apiCall, BASE_URL, loginApi } from './fixtures/api.js';

async function addDevice(token: string, name: string): Promise<string> {
  const res = await fetch(`${BASE_URL}${DEVICE_API_PREFIX}/pairing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ player: { version: '1.4.2' } }),
  });
  const pairing = (await res.json()) as { payload: { code: string } };
  const added = await apiCall('deviceAdd', { code: pairing.payload.code, name }, { token });
  return added.payload.id;
}
const { token } = await loginApi('entadmin');
const names = ['大堂屏 1F-A', '大堂屏 1F-B', '电梯厅 2F', '电梯厅 3F', '收银台', '入口海报机', '会议室 301', '停车场入口'];
const ids: string[] = [];
for (const n of names) ids.push(await addDevice(token, n));
const g1 = await apiCall('deviceGroupCreate', { name: '大堂与入口', remark: '一楼公共区域', deviceIds: [ids[0], ids[1], ids[5]] }, { token });
await apiCall('deviceGroupCreate', { name: '电梯厅', deviceIds: [ids[2], ids[3]] }, { token });
await apiCall('deviceGroupCreate', { name: '会议室', remark: '', deviceIds: [ids[6]] }, { token });
const region = await apiCall('tagCategoryCreate', { name: '区域' }, { token });
const floor = await apiCall('tagCategoryCreate', { name: '楼层' }, { token });
await apiCall('tagCategoryCreate', { name: '屏幕类型' }, { token });
const t1 = await apiCall('deviceTagCreate', { name: '华东', categoryId: region.payload.id, deviceIds: ids.slice(0, 5) }, { token });
await apiCall('deviceTagCreate', { name: '华南', categoryId: region.payload.id, deviceIds: ids.slice(5) }, { token });
await apiCall('deviceTagCreate', { name: '一楼', categoryId: floor.payload.id, deviceIds: [ids[0], ids[1], ids[4], ids[5]] }, { token });
await apiCall('deviceTagCreate', { name: '二楼', categoryId: floor.payload.id, deviceIds: [ids[2]] }, { token });
console.log(g1.code, t1.code);
