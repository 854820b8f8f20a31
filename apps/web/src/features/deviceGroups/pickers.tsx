/** The device group and tag pickers now live with the other shared pickers. */
export { GroupSelect, TagSelect, useGroupOptions, useTagOptions } from '../../components/pickers/options';
