import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SurveyVar } from '@gantry/contract';
import { SURVEY_TYPE_LABEL_KEYS, SurveyVarDialog } from './survey-var-dialog.tsx';
import { AddRowButton } from '../../../components/list-row-buttons.tsx';

interface SurveyVarsEditorProps {
  value: readonly SurveyVar[];
  onChange: (value: SurveyVar[]) => void;
}

/** The questions a task asks before it runs: a list with add, edit, reorder and delete. */
export function SurveyVarsEditor({ value, onChange }: SurveyVarsEditorProps) {
  const { t } = useTranslation();
  // undefined: closed; -1: a new variable; otherwise the index being edited.
  const [editing, setEditing] = useState<number | undefined>(undefined);

  const save = (variable: SurveyVar) => {
    if (editing === undefined || editing < 0) onChange([...value, variable]);
    else onChange(value.map((old, index) => (index === editing ? variable : old)));
  };
  const move = (from: number, to: number) => {
    const next = [...value];
    const [moved] = next.splice(from, 1);
    if (moved) next.splice(to, 0, moved);
    onChange(next);
  };

  return (
    <Box component="section" aria-labelledby="survey-vars-label">
      <Typography id="survey-vars-label" variant="subtitle2">
        {t('templates.form.surveyVars')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('templates.form.surveyVarsHint')}
      </Typography>
      {value.length ? (
        <List dense disablePadding sx={{ mt: 1 }}>
          {value.map((variable, index) => (
            <ListItem
              key={`${variable.name}-${index}`}
              disableGutters
              sx={{ borderBottom: 1, borderColor: 'divider', pr: 0 }}
              secondaryAction={
                <Stack direction="row" spacing={0.25}>
                  <IconButton
                    size="small"
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                    aria-label={t('templates.survey.moveUp', { name: variable.title })}
                  >
                    <ArrowUpwardIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    disabled={index === value.length - 1}
                    onClick={() => move(index, index + 1)}
                    aria-label={t('templates.survey.moveDown', { name: variable.title })}
                  >
                    <ArrowDownwardIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    onClick={() => setEditing(index)}
                    aria-label={t('lists.editNamed', { name: variable.title })}
                  >
                    <EditOutlinedIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    onClick={() => onChange(value.filter((_, i) => i !== index))}
                    aria-label={t('lists.deleteNamed', { name: variable.title })}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </Stack>
              }
            >
              <ListItemText
                sx={{ pr: 18 }}
                primary={
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <span>{variable.title}</span>
                    {variable.required ? (
                      <Chip
                        label={t('templates.survey.requiredBadge')}
                        size="small"
                        variant="outlined"
                        sx={{ height: 18, fontSize: 11 }}
                      />
                    ) : null}
                  </Stack>
                }
                secondary={`${variable.name} · ${t(SURVEY_TYPE_LABEL_KEYS[variable.type])}`}
              />
            </ListItem>
          ))}
        </List>
      ) : null}
      <AddRowButton label={t('templates.survey.add')} onClick={() => setEditing(-1)} sx={{ mt: 1 }} />
      <SurveyVarDialog
        open={editing !== undefined}
        variable={editing !== undefined && editing >= 0 ? value[editing] : undefined}
        onSave={save}
        onClose={() => setEditing(undefined)}
      />
    </Box>
  );
}
