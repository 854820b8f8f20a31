/**
 * The parts of ECharts the home page uses, and nothing else (issue 8: the shell's chunk stays
 * small): the core, the bar chart, grid, tooltip and aria components and the SVG renderer.
 * Loaded by TrendChart with import(), so it is a chunk of its own, fetched after the page shows.
 */
import { BarChart } from 'echarts/charts';
import { AriaComponent, GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, GridComponent, TooltipComponent, AriaComponent, SVGRenderer]);

export { echarts };
