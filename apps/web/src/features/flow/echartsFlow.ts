/**
 * The parts of ECharts the data consumption chart uses: the core, line and bar charts, grid,
 * tooltip and aria components and the SVG renderer. Loaded by UsageChart with import(), so it
 * is a chunk of its own, fetched after the page shows.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, AriaComponent, SVGRenderer]);

export { echarts };
