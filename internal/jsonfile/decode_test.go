package jsonfile

import (
	"strings"
	"testing"
)

type inner struct {
	Rate float64 `json:"rate"`
}

type outer struct {
	Layers int   `json:"layers"`
	Opt    inner `json:"opt"`
	Plain  string
}

// DecodeStrict takes one JSON object with exact keys, nested ones included, and refuses
// unknown keys, keys that match only up to case, and anything after the value.
func TestDecodeStrictRefusesWhatEncodingJSONWouldAccept(t *testing.T) {
	var v outer
	if err := DecodeStrict(" {\"layers\": 3, \"opt\": {\"rate\": 0.5}, \"Plain\": \"x\"}\n\t", &v); err != nil {
		t.Fatal(err)
	}
	if v.Layers != 3 || v.Opt.Rate != 0.5 || v.Plain != "x" {
		t.Errorf("decoded %+v", v)
	}
	for _, tc := range []struct{ text, want string }{
		{`{"layers":1}{"layers":-7}`, "after the JSON value"},
		{`{"layers":1} x`, "after the JSON value"},
		{`{"Layers":1}`, `did you mean "layers"`},
		{`{"opt":{"Rate":1}}`, `"Rate" in opt`},
		{`{"layer":1}`, `unknown field "layer"; did you mean "layers"?`},
		{`{"zzzzzzzz":1}`, `valid fields: Plain, layers, opt`},
		{`{"layers":`, "unexpected EOF"},
	} {
		var v outer
		if err := DecodeStrict(tc.text, &v); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.text, err, tc.want)
		}
	}
}

// DecodeStrict refuses a key twice in one object — at the top, nested, inside an array
// — naming the key, where it is and its line, and accepts the same key in different
// objects.
func TestDecodeStrictRefusesDuplicateKeys(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`{"layers": 1, "layers": 2}`, `key "layers" appears twice (line 1)`},
		{"{\"layers\": 1,\n\"opt\": {\"rate\": 1,\n \"rate\": 2}}", `key "rate" appears twice in opt (line 3)`},
		{`{"list": [{"a": 1}, {"a": 2, "a": 3}]}`, `key "a" appears twice in list[1]`},
	} {
		var v any
		if err := DecodeStrict(tc.text, &v); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.text, err, tc.want)
		}
	}
	var v any
	if err := DecodeStrict(`{"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 3}, {"x": 4}]}`, &v); err != nil {
		t.Errorf("the same key in different objects: %v", err)
	}
}
