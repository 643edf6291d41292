package gexph

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
)

// lossEpsilon guards the denominators of the losses against empty batches.
const lossEpsilon = 1e-12

// bceWithLogits is the binary cross-entropy of logits z against targets y in {0, 1},
// computed stably as max(z, 0) − z·y + log(1 + e^(−|z|)).
func bceWithLogits(z, y *Node) *Node {
	return Add(Sub(MaxScalar(z, 0), Mul(z, y)), Log1p(Exp(Neg(Abs(z)))))
}

// lossGraph returns the scalar training loss of the outputs out [R, outDim] against the
// labels (or targets) of in, rows weighted by in["weights"] (0 leaves a row out).
//
//   - cross-entropy: Σ wᵢ ℓᵢ / Σ wᵢ, with ℓ the softmax cross-entropy (sigmoid binary
//     cross-entropy with one output);
//   - weighted-cross-entropy (GraphGPS): class c gets the weight W_c = (V − n_c)/V over the
//     V weighted rows of which n_c are of class c; Σ wᵢ W_yᵢ ℓᵢ / Σ wᵢ W_yᵢ for several
//     outputs (PyTorch's weighted nll_loss) and Σ wᵢ W_yᵢ ℓᵢ / V for one (PyTorch's
//     binary_cross_entropy_with_logits with per-row weights);
//   - bce, l1, mse: the mean over the weighted rows and all outputs.
func (m *Model) lossGraph(out *Node, in map[string]*Node) *Node {
	f32 := dtypes.Float32
	w := in["weights"]
	sumW := ReduceAllSum(w)
	mean := func(perRow *Node) *Node {
		return Div(ReduceAllSum(Mul(perRow, w)), MaxScalar(sumW, lossEpsilon))
	}
	switch m.loss {
	case LossCrossEntropy, LossWeightedCrossEntropy:
		y := in["labels"]
		c := m.spec.numClasses
		var perRow *Node
		binary := m.spec.outDim == 1
		if binary {
			perRow = bceWithLogits(Reshape(out, -1), ConvertDType(y, f32))
		} else {
			perRow = Neg(ReduceSum(Mul(LogSoftmax(out, -1), OneHot(y, c, f32)), -1))
		}
		if m.loss == LossCrossEntropy {
			return mean(perRow)
		}
		oneHot := OneHot(y, c, f32)                            // [R, C]
		counts := ReduceSum(Mul(oneHot, InsertAxes(w, -1)), 0) // [C]
		present := ConvertDType(GreaterThan(counts, ZerosLike(counts)), f32)
		classW := Mul(Div(Sub(sumW, counts), MaxScalar(sumW, lossEpsilon)), present)
		rowW := Mul(ReduceSum(Mul(oneHot, InsertAxes(classW, 0)), -1), w) // [R]
		num := ReduceAllSum(Mul(rowW, perRow))
		if binary {
			return Div(num, MaxScalar(sumW, lossEpsilon))
		}
		return Div(num, MaxScalar(ReduceAllSum(rowW), lossEpsilon))
	case LossBCE:
		return DivScalar(mean(ReduceSum(bceWithLogits(out, in["targets"]), -1)), float64(m.spec.outDim))
	case LossL1:
		return DivScalar(mean(ReduceSum(Abs(Sub(out, in["targets"])), -1)), float64(m.spec.outDim))
	case LossMSE:
		return DivScalar(mean(ReduceSum(Square(Sub(out, in["targets"])), -1)), float64(m.spec.outDim))
	}
	panic(fmt.Errorf("loss %q not implemented", m.loss))
}

// hostLoss computes lossGraph's value in float64 on the host for the rows of out
// ([rows × outDim], row-major) selected by weights (len rows): the loss of evaluation
// passes. It also returns the weight sum, to average losses over batches.
func (m *Model) hostLoss(out []float32, labels []int32, targets []float32, weights []float32) (loss, sumW float64) {
	k := m.spec.outDim
	rows := len(weights)
	bce := func(z, y float64) float64 { return math.Max(z, 0) - z*y + math.Log1p(math.Exp(-math.Abs(z))) }
	perRow := make([]float64, rows)
	for i := 0; i < rows; i++ {
		if weights[i] == 0 {
			continue
		}
		sumW += float64(weights[i])
		row := out[i*k : (i+1)*k]
		switch m.loss {
		case LossCrossEntropy, LossWeightedCrossEntropy:
			if k == 1 {
				perRow[i] = bce(float64(row[0]), float64(labels[i]))
				continue
			}
			mx := math.Inf(-1)
			for _, v := range row {
				mx = math.Max(mx, float64(v))
			}
			s := 0.0
			for _, v := range row {
				s += math.Exp(float64(v) - mx)
			}
			perRow[i] = mx + math.Log(s) - float64(row[labels[i]])
		default:
			t := targets[i*k : (i+1)*k]
			for j, v := range row {
				switch m.loss {
				case LossBCE:
					perRow[i] += bce(float64(v), float64(t[j]))
				case LossL1:
					perRow[i] += math.Abs(float64(v) - float64(t[j]))
				case LossMSE:
					perRow[i] += (float64(v) - float64(t[j])) * (float64(v) - float64(t[j]))
				}
			}
			perRow[i] /= float64(k)
		}
	}
	if sumW == 0 {
		return 0, 0
	}
	if m.loss != LossWeightedCrossEntropy {
		s := 0.0
		for i, l := range perRow {
			s += float64(weights[i]) * l
		}
		return s / sumW, sumW
	}
	counts := map[int32]float64{}
	for i, y := range labels[:rows] {
		counts[y] += float64(weights[i])
	}
	num, den := 0.0, 0.0
	for i, l := range perRow {
		if weights[i] == 0 {
			continue
		}
		rw := float64(weights[i]) * (sumW - counts[labels[i]]) / sumW
		num += rw * l
		den += rw
	}
	if k == 1 {
		return num / sumW, sumW
	}
	return num / math.Max(den, lossEpsilon), sumW
}
