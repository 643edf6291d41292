package gexph

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gexph/gexph/internal/jsonfile"
	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// ToJSON returns the config as indented JSON.
func (c Config) ToJSON() (string, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", fmt.Errorf("config: encoding JSON: %w", err)
	}
	return string(b), nil
}

// ParseConfig decodes a JSON config, rejecting unknown keys, keys that differ from a
// field's only in case, keys given twice, null values and anything after the one JSON
// object, and validates it. Keys
// absent from the JSON keep the values of base, so a partial JSON overrides a preset.
func ParseConfig(base Config, jsonText string) (Config, error) {
	cfg := base
	if err := jsonfile.DecodeStrict(jsonText, &cfg); err != nil {
		return Config{}, fmt.Errorf("config: decoding JSON: %w", err)
	}
	if err := refuseNulls(jsonText); err != nil {
		return Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// refuseNulls reports a key of the JSON object text whose value is null (YAML's "key:"
// with nothing after it, "~" or "null"), which decoding would skip, leaving the base's
// value in place of the one the user meant to give.
func refuseNulls(text string) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return fmt.Errorf("config: decoding JSON: %w", err)
	}
	keys := make([]string, 0, len(raw))
	for k, v := range raw {
		if string(bytes.TrimSpace(v)) == "null" {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		slices.Sort(keys)
		return fmt.Errorf("config: %s: no value (null); give one, or leave the key out for the preset's", keys[0])
	}
	return nil
}

// MaxConfigBytes bounds a config file that is not a checkpoint (a result.json of a
// thousand epochs is about a megabyte).
const MaxConfigBytes = 16 << 20

// LoadConfig reads a config file on top of base: YAML or JSON (JSON is YAML too) with
// the fields of Config under their JSON names (see ParseConfig), the result.json of a
// run (its "config" part), or a checkpoint (its config): "run exactly this again" is
// one file. A checkpoint is read by the sizes its header gives; any other file of more
// than MaxConfigBytes, or a stream that goes on past them (/dev/zero), is refused.
func LoadConfig(base Config, path string) (Config, error) {
	if isCheckpointFile(path) {
		info, err := ReadCheckpointInfo(path)
		if err != nil {
			return Config{}, fmt.Errorf("config: %w", err)
		}
		if err := info.Config.Validate(); err != nil {
			return Config{}, fmt.Errorf("%s: %w", path, err)
		}
		return info.Config, nil
	}
	b, err := jsonfile.ReadFileLimit(path, MaxConfigBytes, "config file")
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	js, err := yamlToJSON(b, "")
	if err != nil {
		return Config{}, fmt.Errorf("%s: config: %w", path, err)
	}
	var run struct {
		Config json.RawMessage `json:"config"`
	}
	if json.Unmarshal(js, &run) == nil && len(run.Config) > 0 {
		// A result.json (or any record holding a config): the config of a run, whose
		// fanout older versions stored even when the run was full-batch and sampled
		// nothing (unchecked then): it is left out, as Train leaves it out now.
		cfg := base
		if err := jsonfile.DecodeStrict(string(run.Config), &cfg); err != nil {
			return Config{}, fmt.Errorf("%s: config: decoding JSON: %w", path, err)
		}
		if err := refuseNulls(string(run.Config)); err != nil {
			return Config{}, fmt.Errorf("%s: %w", path, err)
		}
		cfg = cfg.withoutIdleFanout()
		if err := cfg.Validate(); err != nil {
			return Config{}, fmt.Errorf("%s: %w", path, err)
		}
		return cfg, nil
	}
	cfg, err := ParseConfig(base, string(js))
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// ParseSetting applies one "key=value" override to cfg: key is a field's JSON name and
// value a YAML scalar or flow collection (3, 0.01, true, gcn, [1, 2]), so
// "-set lr=0.01 -set mpnn=gcn" reads as a researcher writes it. A value that begins
// with '{' makes the whole setting a JSON object instead (see ParseConfig).
func ParseSetting(cfg Config, setting string) (Config, error) {
	text := strings.TrimSpace(setting)
	if strings.HasPrefix(text, "{") {
		return ParseConfig(cfg, text)
	}
	key, value, ok := strings.Cut(text, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return Config{}, fmt.Errorf("config: setting %q: want key=value (e.g. layers=3) or a JSON object", setting)
	}
	value = strings.TrimSpace(value)
	var js []byte
	if f, err := strconv.ParseFloat(value, 64); err == nil {
		// A number as Go reads it (YAML 1.1 would read 1e-3 as a string); an integral
		// one is written as an integer so that integer fields take it.
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return Config{}, fmt.Errorf("config: setting %q: %s = %v, want a finite number", setting, key, f)
		}
		js = strconv.AppendFloat(nil, f, 'g', -1, 64)
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			js = strconv.AppendInt(nil, int64(f), 10)
		}
	} else if js, err = yamlToJSON([]byte(value), key); err != nil {
		return Config{}, fmt.Errorf("config: setting %q: %w", setting, err)
	}
	obj, err := json.Marshal(map[string]json.RawMessage{key: js})
	if err != nil {
		return Config{}, fmt.Errorf("config: setting %q: %w", setting, err)
	}
	return ParseConfig(cfg, string(obj))
}

// SettingKeys returns the config keys one setting of ParseSetting sets: the key of
// "key=value", or the keys of a JSON object.
func SettingKeys(setting string) ([]string, error) {
	text := strings.TrimSpace(setting)
	if !strings.HasPrefix(text, "{") {
		key, _, _ := strings.Cut(text, "=")
		return []string{strings.TrimSpace(key)}, nil
	}
	var obj map[string]json.RawMessage
	if err := jsonfile.DecodeStrict(text, &obj); err != nil {
		return nil, fmt.Errorf("config: setting %q: %w", setting, err)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// ParseSettings applies settings in order with ParseSetting, refusing a key that two of
// them set (the last would silently win): one command line says each value once.
func ParseSettings(cfg Config, settings []string) (Config, error) {
	setBy := map[string]string{}
	for _, s := range settings {
		keys, err := SettingKeys(s)
		if err != nil {
			return Config{}, err
		}
		for _, k := range keys {
			if prev, dup := setBy[k]; dup {
				return Config{}, fmt.Errorf("config: key %q set twice (%q, then %q); give each key once", k, prev, s)
			}
			setBy[k] = s
		}
		if cfg, err = ParseSetting(cfg, s); err != nil {
			if strings.HasPrefix(strings.TrimSpace(s), "{") { // key=value errors name it
				err = fmt.Errorf("setting %s: %w", s, err)
			}
			return Config{}, err
		}
	}
	return cfg, nil
}

// yamlToJSON converts YAML (JSON included) to JSON as a config is read: a key twice in
// one mapping is an error naming the key and its line, and so is a value that is not a
// finite number (.nan, .inf, which JSON cannot hold), named by its key path (under
// prefix, when not empty).
func yamlToJSON(b []byte, prefix string) ([]byte, error) {
	var tree any
	if err := yamlv2.UnmarshalStrict(b, &tree); err != nil {
		var te *yamlv2.TypeError
		if errors.As(err, &te) { // strict decoding into any: keys twice in a mapping
			msg := strings.Join(te.Errors, "; ")
			return nil, errors.New(strings.ReplaceAll(msg, "already set in map", "given twice in one mapping; give each key once"))
		}
		return nil, err
	}
	if err := checkFinite(tree, prefix); err != nil {
		return nil, err
	}
	return yaml.YAMLToJSONStrict(b)
}

// checkFinite reports the first float of a decoded YAML value that is NaN or infinite,
// naming its key path.
func checkFinite(v any, path string) error {
	switch v := v.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s = %v, want a finite number", cmp.Or(path, "value"), v)
		}
	case map[any]any:
		for k, x := range v {
			if err := checkFinite(x, strings.TrimPrefix(fmt.Sprintf("%s.%v", path, k), ".")); err != nil {
				return err
			}
		}
	case []any:
		for i, x := range v {
			if err := checkFinite(x, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// ToYAML returns the config as YAML (the JSON names as keys, sorted), which LoadConfig
// reads back to the same config.
func (c Config) ToYAML() (string, error) {
	js, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("config: encoding: %w", err)
	}
	y, err := yaml.JSONToYAML(js)
	if err != nil {
		return "", fmt.Errorf("config: encoding YAML: %w", err)
	}
	return string(y), nil
}
