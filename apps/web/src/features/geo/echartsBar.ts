/**
 * The parts of ECharts the device map uses: the core, the bar chart, grid, tooltip, legend
 * and aria components and the SVG renderer. Loaded by RegionChart with import(), a chunk of
 * its own fetched after the table shows (like the home page's).
 */
import { BarChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, GridComponent, TooltipComponent, LegendComponent, AriaComponent, SVGRenderer]);

export { echarts };
