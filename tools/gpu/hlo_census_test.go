package gpu_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// sampleHLO is the ENTRY computation of an optimised HLO module as XLA's GPU compiler
// dumps it (--xla_dump_hlo_as_text), with a fused computation before it that must not
// be counted: four fusions (two kinds), a cuBLAS product, a scatter and a copy launch;
// parameters, constants, tuples, bitcasts and views do not.
const sampleHLO = `HloModule jit_step, entry_computation_layout={(f32[8,4]{1,0})->f32[]}

%fused_computation.1 (param_0: f32[8,4]) -> f32[8,4] {
  %param_0 = f32[8,4]{1,0} parameter(0)
  ROOT %multiply.1 = f32[8,4]{1,0} multiply(%param_0, %param_0)
}

ENTRY %main.10 (Arg_0.1: f32[8,4], Arg_1.2: s32[16,1]) -> (f32[], f32[8,4]) {
  %Arg_0.1 = f32[8,4]{1,0} parameter(0)
  %Arg_1.2 = s32[16,1]{1,0} parameter(1)
  %constant.3 = f32[] constant(0)
  %fusion.1 = f32[8,4]{1,0} fusion(%Arg_0.1), kind=kLoop, calls=%fused_computation.1
  %fusion.2 = f32[16,4]{1,0} fusion(%fusion.1, %Arg_1.2), kind=kInput, calls=%fused_computation.2
  %custom-call.1 = (f32[8,4]{1,0}, s8[1024]{0}) custom-call(%fusion.1, %fusion.1), custom_call_target="__cublas$gemm", backend_config={}
  %get-tuple-element.1 = f32[8,4]{1,0} get-tuple-element(%custom-call.1), index=0
  %scatter.1 = f32[8,4]{1,0} scatter(%get-tuple-element.1, %Arg_1.2, %fusion.2), update_window_dims={1}, to_apply=%add
  %bitcast.1 = f32[32]{0} bitcast(%scatter.1)
  %copy.1 = f32[8,4]{0,1} copy(%scatter.1)
  %fusion.3 = f32[] fusion(%copy.1), kind=kInput, calls=%fused_computation.3
  %fusion.4 = f32[8,4]{1,0} fusion(%copy.1, %constant.3), kind=kLoop, calls=%fused_computation.4
  ROOT %tuple.9 = (f32[], f32[8,4]{1,0}) tuple(%fusion.3, %fusion.4)
}
`

// hlo_census.py counts the kernels of an optimised HLO dump: those of the ENTRY
// computation only, by opcode, fusion kind and library call.
func TestHLOCensusCountsTheKernelsOfTheEntryComputation(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "module_0001.jit_step.sm_9.0_gpu_after_optimizations.txt"), []byte(sampleHLO), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "module_0001.jit_step.before_optimizations.txt"), []byte(sampleHLO), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("python3", filepath.Join(filepath.Dir(checkScript(t)), "hlo_census.py"), dir).Output()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Modules []struct {
			Module      string         `json:"module"`
			Kernels     int            `json:"kernels"`
			ByOpcode    map[string]int `json:"by_opcode"`
			FusionKinds map[string]int `json:"fusion_kinds"`
			Targets     map[string]int `json:"custom_call_targets"`
		} `json:"modules"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Modules) != 1 {
		t.Fatalf("%d modules, want the one after optimisations", len(got.Modules))
	}
	m := got.Modules[0]
	want := map[string]int{"fusion": 4, "custom-call": 1, "scatter": 1, "copy": 1}
	if m.Kernels != 7 || !reflect.DeepEqual(m.ByOpcode, want) {
		t.Errorf("kernels %d by opcode %v, want 7: %v", m.Kernels, m.ByOpcode, want)
	}
	if !reflect.DeepEqual(m.FusionKinds, map[string]int{"kLoop": 2, "kInput": 2}) || m.Targets["__cublas$gemm"] != 1 {
		t.Errorf("fusion kinds %v, call targets %v", m.FusionKinds, m.Targets)
	}
}
